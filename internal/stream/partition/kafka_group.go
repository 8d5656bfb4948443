package partition

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// kafkaGroup is an owner's membership over Kafka: the owners of a keyed
// stream form a consumer group (GroupName) on its partials topic, and a
// worker owns the aggregation partitions the group assigns it (the
// broker's membership protocol: sessions, heartbeats, the cooperative
// sticky balancer), not leases of its own. The member never fetches
// through the group (its fetches are paused): owners read partitions
// from the offsets their checkpoints hold (kafkaLog).
//
// Fencing: a partition is held under the generation the group assigned
// it in. Revocation waits for the partition's running epoch (busy), so
// a worker that hands a partition over writes nothing for it afterwards;
// one that was paused past its session (the group moved on without it)
// learns so at Check, whose offset commit the broker refuses for a
// stale generation or an unknown member.
type kafkaGroup struct {
	cl     *kgo.Client
	adm    *kadm.Client
	topic  string
	group  string
	worker string

	// busy is held while an epoch runs (guard); revocation takes it.
	busy sync.Mutex

	mu       sync.Mutex
	assigned map[int]uint64 // partition -> the generation that assigned it
	pos      map[int]int64  // partition -> next offset its reader reads
	changed  chan struct{}
}

var _ membership = (*kafkaGroup)(nil)

// GroupName is the Kafka consumer group of a keyed stream's owners.
func GroupName(stream string) string { return "sluice-" + stream + "-owners" }

func newKafkaGroup(topic, group, worker string) *kafkaGroup {
	return &kafkaGroup{topic: topic, group: group, worker: worker, assigned: map[int]uint64{},
		pos: map[int]int64{}, changed: make(chan struct{}, 1)}
}

// opts are the group member's client options (beside the connection's).
func (g *kafkaGroup) opts(session time.Duration) []kgo.Opt {
	return []kgo.Opt{
		kgo.ClientID(g.worker),
		kgo.ConsumerGroup(g.group),
		kgo.ConsumeTopics(g.topic),
		kgo.DisableAutoCommit(),
		kgo.OnPartitionsAssigned(g.onAssigned),
		kgo.OnPartitionsRevoked(g.onRevoked),
		kgo.OnPartitionsLost(g.onRevoked),
		kgo.SessionTimeout(session),
		kgo.HeartbeatInterval(min(3*time.Second, session/3)),
	}
}

func (g *kafkaGroup) signal() {
	select {
	case g.changed <- struct{}{}:
	default:
	}
}

func (g *kafkaGroup) onAssigned(_ context.Context, cl *kgo.Client, a map[string][]int32) {
	_, gen := cl.GroupMetadata()
	g.mu.Lock()
	for _, p := range a[g.topic] {
		g.assigned[int(p)] = uint64(max(gen, 0))
	}
	g.mu.Unlock()
	g.signal()
}

// onRevoked returns only once no epoch runs: the group hands the
// partitions to another worker after it returns.
func (g *kafkaGroup) onRevoked(_ context.Context, _ *kgo.Client, r map[string][]int32) {
	g.busy.Lock()
	defer g.busy.Unlock()
	g.mu.Lock()
	for _, p := range r[g.topic] {
		delete(g.assigned, int(p))
	}
	g.mu.Unlock()
	g.signal()
}

// guard holds off revocation while an epoch of p runs; ok is false
// when p is no longer assigned under gen (call release either way).
func (g *kafkaGroup) guard(p int, gen uint64) (ok bool, release func()) {
	g.busy.Lock()
	cur, held := g.Holds(p)
	return held && cur == gen, g.busy.Unlock
}

// Assigned is every partition assigned, with its generation.
func (g *kafkaGroup) Assigned() map[int]uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make(map[int]uint64, len(g.assigned))
	for p, gen := range g.assigned {
		out[p] = gen
	}
	return out
}

func (g *kafkaGroup) Holds(p int) (uint64, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	gen, ok := g.assigned[p]
	return gen, ok
}

// setPos records where p's reader is, which Check commits.
func (g *kafkaGroup) setPos(p int, next int64) {
	g.mu.Lock()
	g.pos[p] = next
	g.mu.Unlock()
}

// Check commits p's read position as this member of the group: the
// broker refuses it from a member whose generation is past (it was
// removed from the group, or rejoined since) or that it does not know.
func (g *kafkaGroup) Check(ctx context.Context, p int, gen uint64) error {
	g.mu.Lock()
	cur, ok := g.assigned[p]
	off := g.pos[p]
	g.mu.Unlock()
	if !ok || cur != gen {
		return fmt.Errorf("partition %d: no longer assigned to this worker under group generation %d", p, gen)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var cerr error
	g.cl.CommitOffsetsSync(cctx, map[string]map[int32]kgo.EpochOffset{g.topic: {int32(p): {Epoch: -1, Offset: off}}},
		func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
			if err != nil {
				cerr = err
				return
			}
			for _, t := range resp.Topics {
				for _, rp := range t.Partitions {
					if e := kerr.ErrorForCode(rp.ErrorCode); e != nil && cerr == nil {
						cerr = e
					}
				}
			}
		})
	if cerr != nil {
		return fmt.Errorf("partition %d: group %s refused generation %d: %w", p, g.group, gen, cerr)
	}
	return nil
}

// Release forgets nothing: the group decides who holds p. An owner
// that dropped p after an error restores it at its next sync.
func (g *kafkaGroup) Release(context.Context, int) error { return nil }

// view reads every member's assignment, for DESCRIBE STREAM: the owner
// of each partition (by the member's client id, its worker name) and
// the members, sorted.
func (g *kafkaGroup) view(ctx context.Context) (live []string, owners map[int]Holder, err error) {
	described, err := g.adm.DescribeGroups(ctx, g.group)
	if err != nil {
		return nil, nil, fmt.Errorf("describing group %s: %w", g.group, err)
	}
	owners = map[int]Holder{}
	d, ok := described[g.group]
	if !ok {
		return nil, owners, nil
	}
	if errors.Is(d.Err, kerr.GroupIDNotFound) {
		d.Err = nil // no member has joined yet
	}
	if d.Err != nil {
		return nil, nil, fmt.Errorf("describing group %s: %w", g.group, d.Err)
	}
	for _, m := range d.Members {
		live = append(live, m.ClientID)
		c, ok := m.Assigned.AsConsumer()
		if !ok {
			continue
		}
		for _, t := range c.Topics {
			if t.Topic != g.topic {
				continue
			}
			for _, p := range t.Partitions {
				owners[int(p)] = Holder{Worker: m.ClientID}
			}
		}
	}
	for p, gen := range g.Assigned() {
		owners[p] = Holder{Worker: g.worker, Gen: gen}
	}
	sort.Strings(live)
	return live, owners, nil
}

// leave leaves the group at once, so the others take its partitions
// without waiting for the session to time out.
func (g *kafkaGroup) leave(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_ = g.cl.LeaveGroupContext(ctx)
}
