package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/queue"
	"sluice/internal/storage"
	"sluice/internal/stream"
	"sluice/internal/stream/partition"
	"sluice/internal/usererr"
)

// defaultPartitions is a keyed stream's partition count when WITH
// (partitions = P) is absent: well above the workers it is shared by.
const defaultPartitions = 32

// defaultLeaseTTL is how long a dead worker keeps its partitions.
const defaultLeaseTTL = 10 * time.Second

// keyedSplit finds where a worker-mode plan is cut in two
// (docs/scale-out.md, part 2): its one stateful operator must be an
// append- or update-mode WindowAggregate, or an update-mode plain GROUP
// BY (run as a WindowAggregate of one window that never closes), in the
// root stage, with only stateless operators above it. fp is the state
// fingerprint the checkpoint's meta records.
func keyedSplit(root *exec.Stage, ops []exec.StatefulOp) (at int, w *exec.WindowAggregate, fp string, ok bool) {
	if len(ops) != 1 || len(root.Inputs) > 0 {
		return 0, nil, "", false
	}
	for i, op := range root.Ops {
		switch a := op.(type) {
		case *exec.WindowAggregate:
			if exec.Stateful(a) == ops[0].Op && (a.Mode() == exec.Append || a.Mode() == exec.Update) {
				return i, a, a.StateDescription().Fingerprint(), true
			}
		case *exec.StreamAggregate:
			if exec.Stateful(a) == ops[0].Op && a.Mode() == exec.Update {
				return i, a.KeyedGroups(), a.StateDescription().Fingerprint(), true
			}
		}
	}
	return 0, nil, "", false
}

// backfillMarker is a source that lists its location on first start
// (file.StreamSource): the key saying that listing is all committed.
type backfillMarker interface {
	BackfillMarker(slot0 connector.CheckpointArea) string
}

// queueSource is a source reading a notification queue.
type queueSource interface {
	QueueURL() string
	partition.HeldSeqs
}

// runKeyed runs a windowed aggregation as one of several workers: this
// process reads files as a worker slot does, but publishes each file's
// partial aggregates by partition instead of writing them (the reader),
// and owns the partitions it leases, merging their partials and writing
// closed windows to the sink (the owner).
func (e *Engine) runKeyed(ctx context.Context, rs *runningStream, q *stream.Query, src connector.StreamingSource, workers, at int, w *exec.WindowAggregate, fp string, opts map[string]string) error {
	qs, ok := src.(queueSource)
	if !ok || !strings.HasPrefix(qs.QueueURL(), "nats://") && !strings.HasPrefix(qs.QueueURL(), "tls://") {
		return fmt.Errorf("stream %s: a windowed aggregation shared by workers needs a nats:// queue (partials and leases live in JetStream)", q.Name)
	}
	parts := defaultPartitions
	if v := strings.TrimSpace(opts["partitions"]); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 4096 {
			return fmt.Errorf("stream %s: partitions %q: want a number from 1 to 4096", q.Name, v)
		}
		parts = n
	}
	if err := partition.CheckMeta(ctx, q.Checkpoint, parts, fp); err != nil {
		return usererr.Wrap(usererr.Invalid, fmt.Errorf("stream %s: %w", q.Name, err))
	}
	ttl := q.LockTTL
	if ttl <= 0 {
		ttl = defaultLeaseTTL
	}
	u, err := url.Parse(qs.QueueURL())
	if err != nil {
		return fmt.Errorf("stream %s: %w", q.Name, queue.ErrBadURL)
	}
	fq, err := queue.OpenNATS(ctx, u) // creates the shared file consumer if missing
	if err != nil {
		return fmt.Errorf("stream %s: %w", q.Name, err)
	}
	_ = fq.Close()
	path := strings.Split(strings.Trim(u.Path, "/"), "/")
	server := *u
	server.Path, server.RawPath, server.RawQuery = "", "", ""
	nc, err := nats.Connect(server.String(), nats.Name("sluice-keyed"), nats.MaxReconnects(-1))
	if err != nil {
		return fmt.Errorf("stream %s: connecting to %s: %w", q.Name, queue.Redact(server.String()), err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("stream %s: %w", q.Name, err)
	}
	files, err := js.Consumer(ctx, path[0], path[1])
	if err != nil {
		return fmt.Errorf("stream %s: file queue consumer: %w", q.Name, err)
	}
	pst, err := partition.EnsureStream(ctx, js, q.Name)
	if err != nil {
		return fmt.Errorf("stream %s: %w", q.Name, err)
	}
	wst, err := partition.EnsureWatermarkStream(ctx, js, q.Name)
	if err != nil {
		return fmt.Errorf("stream %s: %w", q.Name, err)
	}
	var rnd [3]byte
	_, _ = rand.Read(rnd[:])
	host, _ := os.Hostname()
	worker := fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(rnd[:]))
	leases, err := partition.OpenLeases(ctx, js, partition.BucketName(q.Name), worker, parts, ttl)
	if err != nil {
		return fmt.Errorf("stream %s: %w", q.Name, err)
	}
	var delay int64
	if q.Watermark != nil {
		delay = q.Watermark.Delay
	}
	interval := q.Trigger.Interval
	if interval <= 0 {
		interval = 200 * time.Millisecond
	}
	owner := &partition.Owner{
		Stream: q.Name, Parts: parts, PStream: pst, Leases: leases,
		Tracker:  partition.NewTracker(files, wst, partition.WatermarkFilter(q.Name), delay),
		Base:     q.Checkpoint,
		Template: w, Above: append([]exec.Operator(nil), q.Root.Ops[at+1:]...), Sink: q.Sink,
		Interval: interval,
		Logf:     func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) },
	}
	if bm, ok := src.(backfillMarker); ok {
		// Read before runSlots: SetWorker turns the listing off for
		// every slot but 0.
		slot0 := &stream.Checkpoint{Store: q.Checkpoint.Store, Prefix: q.Checkpoint.Prefix + "workers/0/"}
		if key := bm.BackfillMarker(slot0.SourceArea()); key != "" {
			store := q.Checkpoint.Store
			owner.Backfilled = func(ctx context.Context) (bool, error) {
				_, err := store.Stat(ctx, key)
				if errors.Is(err, storage.ErrNotFound) {
					return false, nil
				}
				return err == nil, err
			}
		}
	}
	part := w.Partitioner(parts)
	reader := *q
	reader.Root = &exec.Stage{Scan: q.Root.Scan, Ops: append(append([]exec.Operator(nil), q.Root.Ops[:at]...), part)}
	pub := &partition.Publisher{JS: js, Stream: q.Name, Part: part, EventTime: q.EventTime, Seqs: qs}
	if ev, ok := src.(partition.EventSeqs); ok {
		pub.Events = ev
	}
	reader.Sink = pub
	reader.Watermark = nil
	rs.mu.Lock()
	rs.source = keyedDescriber{inner: rs.source, owner: owner, worker: worker}
	rs.mu.Unlock()

	// The owner and the reader live and die together: a process whose
	// owner failed must not keep a reader slot (or look alive).
	octx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var oerr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		oerr = owner.Run(octx)
		cancel()
	}()
	err = e.runSlots(octx, rs, &reader, src.(connector.Worker), workers)
	cancel()
	wg.Wait()
	return errors.Join(err, oerr)
}

// keyedDescriber adds partition ownership to DESCRIBE STREAM.
type keyedDescriber struct {
	inner  connector.StreamDescriber
	owner  *partition.Owner
	worker string
}

func (d keyedDescriber) StreamDescription() [][2]string {
	var rows [][2]string
	if d.inner != nil {
		rows = d.inner.StreamDescription()
	}
	mine, owners, live, wm, st := d.owner.Status()
	wmText := "none"
	if wm != stream.NoWatermark {
		wmText = time.UnixMicro(wm).UTC().Format("2006-01-02 15:04:05.000000")
	}
	return append(rows,
		[2]string{"keyed_worker", d.worker},
		[2]string{"keyed_partitions", fmt.Sprintf("%d of %d: %s", len(mine), d.owner.Parts, partition.FormatParts(mine))},
		[2]string{"keyed_owners", partition.FormatOwners(owners)},
		[2]string{"keyed_live_workers", strconv.Itoa(len(live))},
		[2]string{"keyed_watermark", wmText},
		[2]string{"keyed_stats", fmt.Sprintf("epochs %d, partials %d, duplicates %d, late %d, rows out %d, takeovers %d, handbacks %d, file ids %d, forgotten %d",
			st.Epochs, st.Partials, st.Duplicates, st.Late, st.RowsOut, st.Takeovers, st.Handbacks, st.FileIDs, st.Forgotten)},
	)
}

// KeyedStatus is the partition ownership of a keyed stream shared by
// workers, as this process sees it: the numbers behind DESCRIBE STREAM's
// keyed_ rows (both read partition.Owner.Status).
type KeyedStatus struct {
	// Worker is this process's name among the workers.
	Worker string
	// Parts is the number of partitions; Mine those this process owns.
	Parts int
	Mine  []int
	// Owned is the number of partitions each worker holds a lease on.
	Owned map[string]int
	// Live is how many workers are alive.
	Live int
	// Watermark is the keyed watermark (µs), stream.NoWatermark before any.
	Watermark int64
	Stats     partition.OwnerStats
}

// keyedReporter is a source with a KeyedStatus.
type keyedReporter interface {
	KeyedStatus() KeyedStatus
}

var (
	_ keyedReporter           = keyedDescriber{}
	_ connector.QueueReporter = keyedDescriber{}
)

func (d keyedDescriber) KeyedStatus() KeyedStatus {
	mine, owners, live, wm, st := d.owner.Status()
	owned := map[string]int{}
	for _, h := range owners {
		owned[h.Worker]++
	}
	owned[d.worker] = len(mine) // what this process holds, even none
	return KeyedStatus{Worker: d.worker, Parts: d.owner.Parts, Mine: mine, Owned: owned, Live: len(live), Watermark: wm, Stats: st}
}

// QueueStatus is the inner source's.
func (d keyedDescriber) QueueStatus() (connector.QueueStatus, bool) {
	if q, ok := d.inner.(connector.QueueReporter); ok {
		return q.QueueStatus()
	}
	return connector.QueueStatus{}, false
}
