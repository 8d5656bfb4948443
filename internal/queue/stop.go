package queue

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Stopper is a queue that carries a stop request to every receiver of
// its group (STOP STREAM for a stream run by several workers):
//
//	RequestStop(ctx)  asks every receiver to stop.
//	StopWatch(ctx)    a channel closed when a stop is requested after
//	                  this call (a request from before it is stale: the
//	                  receiver started after it). ctx ends the watch.
type Stopper interface {
	RequestStop(ctx context.Context) error
	StopWatch(ctx context.Context) (<-chan struct{}, error)
}

var _ Stopper = (*NATS)(nil)

// stopBucket is the JetStream key-value bucket holding one key per
// consumer: its revision moves on each STOP STREAM.
const stopBucket = "sluice_stop"

// stopKey names the consumer in the bucket (KV keys allow [-_.=/A-Za-z0-9]).
func (q *NATS) stopKey() string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
				return r
			}
			return '_'
		}, s)
	}
	return clean(q.stream) + "." + clean(q.durable)
}

func (q *NATS) stopKV(ctx context.Context) (jetstream.KeyValue, error) {
	kv, err := EnsureKeyValue(ctx, q.js, jetstream.KeyValueConfig{Bucket: stopBucket, History: 1, Replicas: q.replicas,
		Description: "sluice: STOP STREAM for workers sharing a consumer"})
	if err != nil {
		return nil, natsErr(err)
	}
	return kv, nil
}

// RequestStop writes the consumer's key in the sluice_stop bucket.
func (q *NATS) RequestStop(ctx context.Context) error {
	kv, err := q.stopKV(ctx)
	if err != nil {
		return err
	}
	if _, err := kv.Put(ctx, q.stopKey(), []byte(strconv.FormatInt(time.Now().UnixMicro(), 10))); err != nil {
		return fmt.Errorf("requesting stop of jetstream consumer %s/%s: %w", q.stream, q.durable, natsErr(err))
	}
	return nil
}

// StopWatch watches the consumer's key for a new revision.
func (q *NATS) StopWatch(ctx context.Context) (<-chan struct{}, error) {
	kv, err := q.stopKV(ctx)
	if err != nil {
		return nil, err
	}
	w, err := kv.Watch(ctx, q.stopKey(), jetstream.UpdatesOnly())
	if err != nil {
		return nil, fmt.Errorf("watching stop requests of jetstream consumer %s/%s: %w", q.stream, q.durable, natsErr(err))
	}
	stopped := make(chan struct{})
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
				if e != nil && e.Operation() == jetstream.KeyValuePut {
					close(stopped)
					return
				}
			}
		}
	}()
	return stopped, nil
}

// OpenStopper connects to the queue the URL names for its stop requests
// only; errors.ErrUnsupported when its broker carries none (SQS, Kafka:
// opening a Kafka group member just to ask would rebalance the group).
// Close ends the connection.
func OpenStopper(ctx context.Context, raw string) (s Stopper, closeFn func() error, err error) {
	scheme, _, _ := strings.Cut(raw, "://")
	switch strings.ToLower(scheme) {
	case "nats", "tls":
	default:
		return nil, nil, fmt.Errorf("%s: %w", Redact(raw), errors.ErrUnsupported)
	}
	q, err := Open(ctx, raw)
	if err != nil {
		return nil, nil, err
	}
	st, ok := q.(Stopper)
	if !ok {
		_ = q.Close()
		return nil, nil, fmt.Errorf("%s: %w", Redact(raw), errors.ErrUnsupported)
	}
	return st, q.Close, nil
}
