// Package partition runs a windowed aggregation in several processes
// (docs/scale-out.md, part 2): readers publish per-partition partial
// aggregates to JetStream (Publisher), owners hold partitions through
// leases in a JetStream KV bucket (Leases), fold their partitions'
// partials into window state and emit closed windows (Owner), under a
// watermark every owner derives from the file queue's acknowledged
// prefix (Tracker).
//
// Dial (keyed.go) connects a keyed stream's halves to the file queue's
// JetStream server: the shared file consumer, the partials stream, the
// watermark stream (one subject per reader slot, newest message only) and
// the lease bucket. Over a kafka:// queue (keyed_kafka.go) a partials
// topic, a watermark records topic and the owners' consumer group take
// their places (kafkaLog, kafkaSink, kafkaGroup, kafkaTracker), behind
// transport.go's interfaces; the engine imports no transport itself
// (internal/archtest checks it). The reader's plan ends in an
// exec.WindowPartitioner at the keyed cut (physical.KeyedCut); owners keep
// per-partition checkpoints under <checkpoint>/keyed/p<n>/. An update-mode
// plain GROUP BY takes the same path as a window aggregate of one
// never-closing window (exec.StreamAggregate.KeyedGroups). Owners trim
// their file-id sets by the file queue's ack floor: partials carry their
// file's queue sequences, which the reader source reports through this
// package's own interfaces HeldSeqs and EventSeqs (with Slotted, its worker
// slot; file.StreamSource implements all three). Keyed.Describe (describe.go)
// adds the keyed_ DESCRIBE rows and connector.KeyedReporter.
package partition

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/queue"
)

// Leases is one worker's view of a stream's KV bucket: its own liveness
// key w.<worker> and the partition leases p.<n> = <worker>#<generation>
// it holds. Every entry lives TTL after its last write (the bucket's
// MaxAge), so a dead worker's keys vanish by themselves; a lease is
// renewed with an update conditioned on the revision its holder wrote,
// so a holder that lost it (expired, taken) learns so at renewal.
type Leases struct {
	kv     jetstream.KeyValue
	TTL    time.Duration
	Worker string
	// Replicas is the bucket's replica count when opened.
	Replicas int
	parts    int

	mu   sync.Mutex
	held map[int]held
	// seen is the last entry read per key, with when it was read, to
	// spot expired ones without a server round trip per key.
	seen map[string]seenEntry
}

type held struct {
	rev, gen uint64
}

type seenEntry struct {
	value   string
	created time.Time
}

// OpenLeases opens (creating it with ttl and replicas when missing) the
// bucket; an existing bucket keeps its own TTL and replicas
// (queue.EnsureKeyValue).
func OpenLeases(ctx context.Context, js jetstream.JetStream, bucket, worker string, parts int, ttl time.Duration, replicas int) (*Leases, error) {
	kv, err := queue.EnsureKeyValue(ctx, js, jetstream.KeyValueConfig{Bucket: bucket, TTL: ttl, History: 1, Storage: jetstream.FileStorage, Replicas: replicas})
	if err != nil {
		return nil, fmt.Errorf("lease bucket %s: %w", bucket, err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("lease bucket %s: %w", bucket, err)
	}
	if st.TTL() > 0 {
		ttl = st.TTL()
	}
	l := &Leases{kv: kv, TTL: ttl, Worker: worker, parts: parts, held: map[int]held{}, seen: map[string]seenEntry{}, Replicas: 1}
	if bs, ok := st.(*jetstream.KeyValueBucketStatus); ok && bs.StreamInfo() != nil && bs.StreamInfo().Config.Replicas > 0 {
		l.Replicas = bs.StreamInfo().Config.Replicas
	}
	return l, nil
}

func partKey(p int) string { return "p." + strconv.Itoa(p) }

// Heartbeat writes the worker's liveness key and renews every lease it
// holds; it returns the partitions it no longer holds.
func (l *Leases) Heartbeat(ctx context.Context) (lost []int, err error) {
	if _, err := l.kv.Put(ctx, "w."+l.Worker, []byte(time.Now().UTC().Format(time.RFC3339Nano))); err != nil {
		return nil, fmt.Errorf("lease heartbeat: %w", err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for p, h := range l.held {
		rev, err := l.kv.Update(ctx, partKey(p), []byte(l.value(h.gen)), h.rev)
		if err != nil {
			if ctx.Err() != nil {
				return lost, ctx.Err()
			}
			delete(l.held, p)
			lost = append(lost, p)
			continue
		}
		l.held[p] = held{rev: rev, gen: h.gen}
	}
	sort.Ints(lost)
	return lost, nil
}

func (l *Leases) value(gen uint64) string { return l.Worker + "#" + strconv.FormatUint(gen, 10) }

// Holder is who holds a partition.
type Holder struct {
	Worker string
	Gen    uint64
}

func parseOwner(v string) Holder {
	w, g, _ := strings.Cut(v, "#")
	gen, _ := strconv.ParseUint(g, 10, 64)
	return Holder{Worker: w, Gen: gen}
}

// View reads the bucket: the live workers (sorted) and the owner of
// every held partition. Expired entries the server has not removed yet
// count as gone.
func (l *Leases) View(ctx context.Context) (live []string, owners map[int]Holder, err error) {
	keys, err := l.kv.ListKeys(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("lease bucket: %w", err)
	}
	owners = map[int]Holder{}
	var names []string
	for k := range keys.Keys() {
		names = append(names, k)
	}
	for _, k := range names {
		e, err := l.kv.Get(ctx, k)
		if err != nil {
			continue // gone meanwhile
		}
		if time.Since(e.Created()) > l.TTL {
			continue
		}
		v := string(e.Value())
		l.mu.Lock()
		l.seen[k] = seenEntry{value: v, created: e.Created()}
		l.mu.Unlock()
		switch {
		case strings.HasPrefix(k, "w."):
			live = append(live, strings.TrimPrefix(k, "w."))
		case strings.HasPrefix(k, "p."):
			p, err := strconv.Atoi(strings.TrimPrefix(k, "p."))
			if err == nil && v != "" {
				owners[p] = parseOwner(v)
			}
		}
	}
	sort.Strings(live)
	return live, owners, nil
}

// Take tries to lease partition p, free or expired: a create, or an
// update of the revision it read when the last holder deleted it or let
// it expire. ok is false when someone else holds it.
func (l *Leases) Take(ctx context.Context, p int) (gen uint64, ok bool, err error) {
	l.mu.Lock()
	prev := parseOwner(l.seen[partKey(p)].value)
	l.mu.Unlock()
	gen = prev.Gen + 1
	rev, err := l.kv.Create(ctx, partKey(p), []byte(l.value(gen)))
	if errors.Is(err, jetstream.ErrKeyExists) {
		// Maybe expired but not yet removed: take it only if so (a live
		// holder rewrites it every TTL/3).
		e, gerr := l.kv.Get(ctx, partKey(p))
		if gerr != nil || time.Since(e.Created()) <= l.TTL {
			return 0, false, nil
		}
		gen = parseOwner(string(e.Value())).Gen + 1
		rev, err = l.kv.Update(ctx, partKey(p), []byte(l.value(gen)), e.Revision())
		if err != nil {
			return 0, false, nil
		}
	} else if err != nil {
		return 0, false, fmt.Errorf("leasing partition %d: %w", p, err)
	}
	l.mu.Lock()
	l.held[p] = held{rev: rev, gen: gen}
	l.mu.Unlock()
	return gen, true, nil
}

// Holds reports whether the worker still holds p (as of its last
// renewal) and under which generation.
func (l *Leases) Holds(p int) (uint64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h, ok := l.held[p]
	return h.gen, ok
}

// Check asks the server whether p's lease is still this worker's under
// generation gen (Holds answers from the last renewal, which a paused
// process may not have run): an owner checks before each sink write and
// commit.
func (l *Leases) Check(ctx context.Context, p int, gen uint64) error {
	e, err := l.kv.Get(ctx, partKey(p))
	if err != nil {
		return fmt.Errorf("partition %d: lease: %w", p, err)
	}
	if string(e.Value()) != l.value(gen) || time.Since(e.Created()) > l.TTL {
		return fmt.Errorf("partition %d: lease now %q, not %q", p, e.Value(), l.value(gen))
	}
	return nil
}

// Held lists the partitions held, sorted.
func (l *Leases) Held() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]int, 0, len(l.held))
	for p := range l.held {
		out = append(out, p)
	}
	sort.Ints(out)
	return out
}

// Release hands p back: its key is deleted if it is still this
// worker's, so another worker can take it at once.
func (l *Leases) Release(ctx context.Context, p int) error {
	l.mu.Lock()
	h, ok := l.held[p]
	delete(l.held, p)
	l.mu.Unlock()
	if !ok {
		return nil
	}
	if err := l.kv.Delete(ctx, partKey(p), jetstream.LastRevision(h.rev)); err != nil {
		return fmt.Errorf("releasing partition %d: %w", p, err)
	}
	return nil
}

// Leave deletes the worker's liveness key and every lease it holds (a
// clean stop: the others take over without waiting for the TTL). The
// liveness key goes first, so a worker woken by the deletions (Freed)
// already counts one worker less and takes its full share. It returns
// the first failure; the keys it could not delete expire after the TTL.
func (l *Leases) Leave(ctx context.Context) error {
	err := l.kv.Delete(ctx, "w."+l.Worker)
	if err != nil {
		err = fmt.Errorf("leaving lease bucket: %w", err)
	}
	for _, p := range l.Held() {
		if rerr := l.Release(ctx, p); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// Freed watches the bucket for deleted keys (a worker that left, a
// partition handed back) and signals on the channel it returns, one
// pending signal at most, so the owner rebalances at once instead of at
// its next beat. Entries that expire send nothing: the beat finds them.
// The watch ends with ctx.
func (l *Leases) Freed(ctx context.Context) (<-chan struct{}, error) {
	w, err := l.kv.WatchAll(ctx, jetstream.UpdatesOnly())
	if err != nil {
		return nil, fmt.Errorf("watching lease bucket: %w", err)
	}
	out := make(chan struct{}, 1)
	go func() {
		defer func() { _ = w.Stop() }()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-w.Updates():
				if !ok {
					return
				}
				if e == nil || e.Operation() == jetstream.KeyValuePut {
					continue
				}
				select {
				case out <- struct{}{}:
				default:
				}
			}
		}
	}()
	return out, nil
}

// Target is how many partitions a worker should hold among live
// workers: the partition count divided by them, rounded up.
func Target(parts, live int) int {
	if live < 1 {
		live = 1
	}
	return (parts + live - 1) / live
}
