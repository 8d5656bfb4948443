package partition

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
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
	"sluice/internal/usererr"
)

// DefaultLeaseTTL is how long a dead worker keeps its partitions when
// the stream sets no lock TTL.
const DefaultLeaseTTL = 10 * time.Second

// defaultInterval is how often an owner runs its partitions' epochs
// when the stream has no processing-time trigger.
const defaultInterval = 200 * time.Millisecond

// Config is one process's share of a windowed aggregation run by
// several workers: the query, where its plan is cut and what the source
// offers for it. The engine decides that the query runs this way; Dial
// decides how it reaches the other workers.
type Config struct {
	// Query is the whole stream (its Checkpoint the stream's root, not
	// a worker slot's).
	Query *stream.Query
	// Source is the stream's source: a connector.QueueSource on a
	// JetStream queue that implements HeldSeqs (EventSeqs too, to let
	// owners forget files).
	Source connector.StreamingSource
	// Cut is the index in Query.Root.Ops of Template, the stateful
	// operator: the readers run the operators below it, the owners it
	// and the stateless ones above.
	Cut      int
	Template *exec.WindowAggregate
	Parts    int
	// Fingerprint is Template's state fingerprint, which CheckMeta
	// records beside Parts at the first start.
	Fingerprint string
	// Backfill is the key in the checkpoint's store that exists once
	// the source's first listing is committed ("" when it does not
	// list; connector.BackfillMarker).
	Backfill string
	Logf     func(format string, args ...any)
}

// Keyed is one process's halves of a keyed stream, connected to the
// JetStream server of its file queue: the reader's plan, which ends in a
// WindowPartitioner whose partials the Publisher sends by partition,
// and the Owner of the partitions this process leases. Close it when
// Run returns.
type Keyed struct {
	// Worker is this process's name in the lease bucket.
	Worker string
	Owner  *Owner
	// Reader is the reader's half of the query, to run in a worker
	// slot.
	Reader *stream.Query
	// Replicas names each JetStream object of the stream with its
	// replica count when opened, for DESCRIBE STREAM.
	Replicas string
	// Kafka names the topics and the group of a stream over Kafka, for
	// DESCRIBE STREAM.
	Kafka   string
	nc      *nats.Conn
	closers []func()
}

// Dial connects a keyed stream's halves: once the source's queue is
// known to be JetStream's or Kafka's and the checkpoint's meta to match
// (CheckMeta: a usererr.Invalid error), it makes sure the shared file
// consumer exists, then opens (creating them when missing) the partials
// stream, the watermark stream and the lease bucket on the queue's
// server; over Kafka, dialKafka's topics and group instead.
func Dial(ctx context.Context, c Config) (*Keyed, error) {
	q := c.Query
	qs, ok := c.Source.(connector.QueueSource)
	held, okHeld := c.Source.(HeldSeqs)
	url := ""
	if ok {
		url = strings.ToLower(qs.QueueURL())
	}
	isKafka := strings.HasPrefix(url, "kafka://")
	if !ok || !okHeld || !isKafka && !strings.HasPrefix(url, "nats://") && !strings.HasPrefix(url, "tls://") {
		return nil, fmt.Errorf("stream %s: a windowed aggregation shared by workers needs a nats:// or kafka:// queue (partials and partition ownership live there)", q.Name)
	}
	if err := CheckMeta(ctx, q.Checkpoint, c.Parts, c.Fingerprint); err != nil {
		return nil, usererr.Wrap(usererr.Invalid, fmt.Errorf("stream %s: %w", q.Name, err))
	}
	raw, err := storage.ExpandEnv("queue", qs.QueueURL())
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", q.Name, err)
	}
	if isKafka {
		k, err := dialKafka(ctx, c, raw, held)
		if err != nil {
			return nil, fmt.Errorf("stream %s: %w", q.Name, err)
		}
		return k, nil
	}
	t, err := queue.ParseNATS(raw)
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", q.Name, err)
	}
	fq, err := queue.OpenNATS(ctx, raw) // creates the shared file consumer if missing
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", q.Name, err)
	}
	replicas := fq.Replicas()
	_ = fq.Close()
	path := []string{t.Stream, t.Consumer}
	nc, err := t.Connect("sluice-keyed")
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", q.Name, err)
	}
	k, err := open(ctx, c, nc, path, held, replicas)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("stream %s: %w", q.Name, queue.NATSError(err))
	}
	return k, nil
}

// open builds the halves over a connection; replicas is what the
// objects it creates get.
func open(ctx context.Context, c Config, nc *nats.Conn, path []string, held HeldSeqs, replicas int) (*Keyed, error) {
	q := c.Query
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	files, err := js.Consumer(ctx, path[0], path[1])
	if err != nil {
		return nil, fmt.Errorf("file queue consumer: %w", err)
	}
	pst, err := EnsureStream(ctx, js, q.Name, replicas)
	if err != nil {
		return nil, err
	}
	wst, err := EnsureWatermarkStream(ctx, js, q.Name, replicas)
	if err != nil {
		return nil, err
	}
	ttl := q.LockTTL
	if ttl <= 0 {
		ttl = DefaultLeaseTTL
	}
	worker := workerName()
	leases, err := OpenLeases(ctx, js, BucketName(q.Name), worker, c.Parts, ttl, replicas)
	if err != nil {
		return nil, err
	}
	var delay int64
	if q.Watermark != nil {
		delay = q.Watermark.Delay
	}
	owner := newOwner(c)
	owner.PStream, owner.Leases = pst, leases
	owner.Tracker = NewTracker(files, wst, WatermarkFilter(q.Name), delay)
	part := c.Template.Partitioner(c.Parts)
	pub := &Publisher{JS: js, Stream: q.Name, Part: part, EventTime: q.EventTime, Seqs: held}
	if ev, ok := c.Source.(EventSeqs); ok {
		pub.Events = ev
	}
	reps := fmt.Sprintf("stream %s %d, stream %s %d, bucket %s %d", pst.CachedInfo().Config.Name, streamReplicas(pst),
		wst.CachedInfo().Config.Name, streamReplicas(wst), BucketName(q.Name), leases.Replicas)
	return &Keyed{Worker: worker, Owner: owner, Reader: readerQuery(c, part, pub), Replicas: reps, nc: nc}, nil
}

// newOwner is the owner of c's partitions, without its transport.
func newOwner(c Config) *Owner {
	q := c.Query
	interval := q.Trigger.Interval
	if interval <= 0 {
		interval = defaultInterval
	}
	owner := &Owner{
		Stream: q.Name, Parts: c.Parts,
		Base:     q.Checkpoint,
		Template: c.Template, Above: append([]exec.Operator(nil), q.Root.Ops[c.Cut+1:]...), Sink: q.Sink,
		Interval: interval,
		Logf:     c.Logf,
	}
	if c.Backfill != "" {
		store, key := q.Checkpoint.Store, c.Backfill
		owner.Backfilled = func(ctx context.Context) (bool, error) {
			_, err := store.Stat(ctx, key)
			if errors.Is(err, storage.ErrNotFound) {
				return false, nil
			}
			return err == nil, err
		}
	}
	return owner
}

// readerQuery is the reader's half of c's query: the operators below
// the cut, then part, whose partials pub publishes.
func readerQuery(c Config, part *exec.WindowPartitioner, pub *Publisher) *stream.Query {
	q := c.Query
	reader := *q
	reader.Root = &exec.Stage{Scan: q.Root.Scan, Ops: append(append([]exec.Operator(nil), q.Root.Ops[:c.Cut]...), part)}
	reader.Sink = pub
	reader.Watermark = nil
	return &reader
}

// streamReplicas is a stream's replica count as last read (1 when the
// server left it unset).
func streamReplicas(st jetstream.Stream) int {
	if info := st.CachedInfo(); info != nil && info.Config.Replicas > 0 {
		return info.Config.Replicas
	}
	return 1
}

// workerName names this process in the lease bucket: host, pid and a
// random tag, so a restarted process is a new worker.
func workerName() string {
	var rnd [3]byte
	_, _ = rand.Read(rnd[:])
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(rnd[:]))
}

// Run runs the owner beside readers, which runs k.Reader in a worker
// slot. The two live and die together: a process whose owner failed
// must not keep a reader slot (or look alive), nor one whose reader
// ended keep owning partitions. Closing stop (a SIGTERM, STOP STREAM)
// lets each half finish its running epoch; the reader is expected to
// watch stop too. A half that ends without error stops the other the
// same way, one that fails cancels the other's epoch.
func (k *Keyed) Run(ctx context.Context, stop <-chan struct{}, readers func(ctx context.Context, reader *stream.Query) error) error {
	octx, cancel := context.WithCancel(ctx)
	defer cancel()
	readDone := make(chan struct{})
	ownerStop := make(chan struct{})
	go func() {
		select {
		case <-stop:
		case <-readDone:
		case <-octx.Done():
		}
		close(ownerStop)
	}()
	var wg sync.WaitGroup
	var oerr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		if oerr = k.Owner.Run(octx, ownerStop); oerr != nil {
			cancel()
		}
	}()
	err := readers(octx, k.Reader)
	close(readDone)
	if err != nil {
		cancel()
	}
	wg.Wait()
	return errors.Join(err, oerr)
}

// Close closes the connection to the JetStream server (the Kafka
// clients).
func (k *Keyed) Close() {
	if k.nc != nil {
		k.nc.Close()
	}
	for i := len(k.closers) - 1; i >= 0; i-- {
		k.closers[i]()
	}
	k.closers = nil
}
