package queue

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// NATS is a durable pull consumer of a JetStream stream. Several
// receivers on the same consumer share its messages (each message goes
// to one of them), which is what lets several workers split one stream.
type NATS struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	cons    jetstream.Consumer
	stream  string
	durable string
	ackWait time.Duration
	// replicas is what Sluice's own JetStream objects are created with:
	// ?replicas=, else the discovery stream's.
	replicas int
}

var (
	_ Queue      = (*NATS)(nil)
	_ Extender   = (*NATS)(nil)
	_ Backlogger = (*NATS)(nil)
	_ Checker    = (*NATS)(nil)
)

// Check fails while the connection is down (the client reconnects
// forever; a fetch meanwhile would only time out, like an empty queue).
func (q *NATS) Check() error {
	if st := q.nc.Status(); st != nats.CONNECTED {
		why := "connection " + strings.ToLower(st.String())
		if err := q.nc.LastError(); err != nil {
			if ClassifyNATS(err) == NATSDenied {
				return fmt.Errorf("jetstream %s/%s: %w", q.stream, q.durable, natsErr(err))
			}
			why += ": " + err.Error()
		}
		return fmt.Errorf("jetstream %s/%s: %w: not connected to the NATS server (%s)", q.stream, q.durable, ErrUnreachable, why)
	}
	return nil
}

type natsMsg struct{ m jetstream.Msg }

func (m natsMsg) Data() []byte { return m.m.Data() }
func (m natsMsg) ID() string {
	if md, err := m.m.Metadata(); err == nil {
		return "seq " + strconv.FormatUint(md.Sequence.Stream, 10)
	}
	return m.m.Subject()
}

// OpenNATS connects to nats://host:port/<stream>/<consumer> (raw after
// ${env:VAR} expansion; several servers and the connection options of
// NATSTarget). The stream must exist (it is what the S3 server
// publishes into); the durable consumer is created when missing,
// delivering from the stream's start with explicit acks and ?ack_wait
// (default 30s). ?filter=SUBJECT limits a new consumer to one subject of
// the stream.
func OpenNATS(ctx context.Context, raw string) (*NATS, error) {
	t, err := ParseNATS(raw)
	if err != nil {
		return nil, err
	}
	u := &url.URL{RawQuery: t.Query.Encode()}
	ackWait, err := durationParam(u, "ack_wait", 30*time.Second)
	if err != nil {
		return nil, err
	}
	replicas, err := replicasParam(t.Query)
	if err != nil {
		return nil, err
	}
	parts := []string{t.Stream, t.Consumer}
	nc, err := t.Connect("sluice")
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream on %s: %w", t.ServerList(), natsErr(err))
	}
	st, err := js.Stream(ctx, parts[0])
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream stream %s on %s: %w", parts[0], t.ServerList(), natsErr(err))
	}
	cons, err := st.Consumer(ctx, parts[1])
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		cons, err = st.CreateConsumer(ctx, jetstream.ConsumerConfig{
			Durable:       parts[1],
			AckPolicy:     jetstream.AckExplicitPolicy,
			AckWait:       ackWait,
			DeliverPolicy: jetstream.DeliverAllPolicy,
			MaxDeliver:    -1,
			FilterSubject: t.Query.Get("filter"),
			MaxAckPending: 100_000,
		})
		if errors.Is(err, jetstream.ErrConsumerExists) {
			// Another worker created it first.
			cons, err = st.Consumer(ctx, parts[1])
		}
	}
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream consumer %s/%s: %w", parts[0], parts[1], natsErr(err))
	}
	q := &NATS{nc: nc, js: js, cons: cons, stream: parts[0], durable: parts[1], ackWait: ackWait, replicas: replicas}
	if info := st.CachedInfo(); replicas == 0 && info != nil {
		q.replicas = info.Config.Replicas
	}
	if info := cons.CachedInfo(); info != nil && info.Config.AckWait > 0 {
		q.ackWait = info.Config.AckWait // an existing consumer keeps its own
	}
	return q, nil
}

// Receive fetches up to max messages.
func (q *NATS) Receive(ctx context.Context, max int, wait time.Duration) ([]Message, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	if max <= 0 {
		max = 100
	}
	var (
		batch jetstream.MessageBatch
		err   error
	)
	if wait <= 0 {
		batch, err = q.cons.FetchNoWait(max)
	} else {
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			wait = max2(time.Until(dl), time.Millisecond)
		}
		// Fetch would wait for all max messages; the contract is to
		// wait only for the first, which is what a stream waiting for
		// an arrival needs. The rest are what is there now.
		first, err := q.cons.Next(jetstream.FetchMaxWait(wait))
		if errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoMessages) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("fetching from jetstream %s/%s: %w", q.stream, q.durable, natsErr(err))
		}
		out := []Message{natsMsg{first}}
		if max == 1 {
			return out, nil
		}
		rest, err := q.Receive(ctx, max-1, 0)
		return append(out, rest...), err
	}
	if err != nil {
		return nil, fmt.Errorf("fetching from jetstream %s/%s: %w", q.stream, q.durable, natsErr(err))
	}
	var out []Message
	for m := range batch.Messages() {
		out = append(out, natsMsg{m})
	}
	if err := batch.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, jetstream.ErrNoMessages) {
		return out, fmt.Errorf("fetching from jetstream %s/%s: %w", q.stream, q.durable, natsErr(err))
	}
	return out, nil
}

func max2(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}

// Ack acknowledges each message and waits for the server to confirm, so
// a returned nil means the server will not redeliver them.
func (q *NATS) Ack(ctx context.Context, msgs []Message) error {
	for _, m := range msgs {
		nm, ok := m.(natsMsg)
		if !ok {
			return fmt.Errorf("acking %T on jetstream", m)
		}
		if err := nm.m.DoubleAck(ctx); err != nil {
			return fmt.Errorf("acking %s on jetstream %s/%s: %w", m.ID(), q.stream, q.durable, natsErr(err))
		}
	}
	return nil
}

// Nak asks for redelivery now.
func (q *NATS) Nak(_ context.Context, msgs []Message) error {
	for _, m := range msgs {
		if nm, ok := m.(natsMsg); ok {
			if err := nm.m.Nak(); err != nil {
				return fmt.Errorf("nak %s on jetstream %s/%s: %w", m.ID(), q.stream, q.durable, natsErr(err))
			}
		}
	}
	return nil
}

// Extend restarts each message's ack wait.
func (q *NATS) Extend(_ context.Context, msgs []Message) error {
	for _, m := range msgs {
		if nm, ok := m.(natsMsg); ok {
			if err := nm.m.InProgress(); err != nil {
				return fmt.Errorf("extending %s on jetstream %s/%s: %w", m.ID(), q.stream, q.durable, natsErr(err))
			}
		}
	}
	return nil
}

// Deadline is the consumer's ack wait.
func (q *NATS) Deadline() time.Duration { return q.ackWait }

// Backlog is the consumer's pending and ack-pending counts.
func (q *NATS) Backlog(ctx context.Context) (Backlog, error) {
	info, err := q.cons.Info(ctx)
	if err != nil {
		return Backlog{}, fmt.Errorf("jetstream consumer %s/%s: %w", q.stream, q.durable, natsErr(err))
	}
	return Backlog{Pending: int64(info.NumPending), Unacked: int64(info.NumAckPending)}, nil
}

// Close drains nothing: unacknowledged messages come back after ack_wait.
func (q *NATS) Close() error {
	q.nc.Close()
	return nil
}
