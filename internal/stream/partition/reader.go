package partition

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// subjectReader reads one subject of a JetStream stream in order from a
// stream sequence on, through an ephemeral pull consumer without acks.
// A delivery lost on the way (the consumer's own sequence skips) makes
// it recreate the consumer after the last message returned, so what it
// returns never has a gap. Not safe for concurrent use.
type subjectReader struct {
	st      jetstream.Stream
	subject string
	next    uint64 // stream sequence to start from
	cons    jetstream.Consumer
	consSeq uint64 // last consumer sequence delivered
}

func newSubjectReader(st jetstream.Stream, subject string, from uint64) *subjectReader {
	return &subjectReader{st: st, subject: subject, next: from}
}

func (r *subjectReader) open(ctx context.Context) error {
	cfg := jetstream.ConsumerConfig{FilterSubject: r.subject, AckPolicy: jetstream.AckNonePolicy,
		DeliverPolicy: jetstream.DeliverAllPolicy, InactiveThreshold: time.Minute, MemoryStorage: true}
	if r.next > 1 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, r.next
	}
	c, err := r.st.CreateConsumer(ctx, cfg)
	if err != nil {
		return fmt.Errorf("reading %s: %w", r.subject, err)
	}
	r.cons, r.consSeq = c, 0
	return nil
}

// fetch returns the messages available now (at most max), in order;
// none is not an error.
func (r *subjectReader) fetch(ctx context.Context, max int) ([]jetstream.Msg, error) {
	if r.cons == nil {
		if err := r.open(ctx); err != nil {
			return nil, err
		}
	}
	batch, err := r.cons.FetchNoWait(max)
	if err != nil {
		r.close(ctx)
		return nil, fmt.Errorf("reading %s: %w", r.subject, err)
	}
	var out []jetstream.Msg
	gap := false
	for m := range batch.Messages() {
		if gap {
			continue
		}
		md, err := m.Metadata()
		if err != nil || md.Sequence.Consumer != r.consSeq+1 {
			gap = true
			continue
		}
		r.consSeq++
		r.next = md.Sequence.Stream + 1
		out = append(out, m)
	}
	if err := batch.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, context.DeadlineExceeded) {
		gap = true
	}
	if gap {
		r.close(ctx)
	}
	return out, nil
}

// fetchWait is fetch retried until something comes or wait passes.
func (r *subjectReader) fetchWait(ctx context.Context, max int, wait time.Duration) ([]jetstream.Msg, error) {
	deadline := time.Now().Add(wait)
	for {
		msgs, err := r.fetch(ctx, max)
		if err != nil || len(msgs) > 0 || time.Now().After(deadline) {
			return msgs, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// close deletes the consumer (the server would after a minute idle).
func (r *subjectReader) close(ctx context.Context) {
	if r.cons == nil {
		return
	}
	if info := r.cons.CachedInfo(); info != nil {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		_ = r.st.DeleteConsumer(dctx, info.Name)
		cancel()
	}
	r.cons = nil
}
