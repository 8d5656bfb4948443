package partition

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The transport of a keyed stream sits behind these interfaces, so the
// readers' publishing and the owners' epochs (Publisher, Owner) are the
// same over JetStream (nats.go's objects: the partials stream, the lease
// bucket, Tracker) and over Kafka (kafka.go: a partials topic, the
// owners' consumer group, kafkaTracker).

// partialLog is where the partials of every partition are kept, in
// order, until trimmed. A position (a "sequence") counts from 1; 0 is
// before the first partial.
type partialLog interface {
	// Last is the position of partition p's newest partial (0: none).
	Last(ctx context.Context, p int) (uint64, error)
	// Reader reads partition p's partials after position from-1 on.
	Reader(p int, from uint64) partialReader
	// Trim drops partition p's partials before position before (those
	// a committed epoch folded); best effort.
	Trim(ctx context.Context, p int, before uint64)
}

// partialReader reads one partition's partials in order. Not safe for
// concurrent use.
type partialReader interface {
	// fetchWait returns at most max partials, waiting up to wait for
	// the first; none is not an error.
	fetchWait(ctx context.Context, max int, wait time.Duration) ([]partialRec, error)
	// close ends the reading.
	close(ctx context.Context)
}

// partialRec is one stored partialMsg and its position.
type partialRec struct {
	Seq  uint64
	Data []byte
}

// membership is how an owner comes to hold partitions and learns it
// lost one: Leases over JetStream, the consumer group's assignment
// over Kafka (kafkaGroup).
type membership interface {
	// Holds reports whether the worker holds p as it last knew, under
	// which generation.
	Holds(p int) (gen uint64, ok bool)
	// Check asks the server whether p is still this worker's under
	// generation gen: an owner calls it before writing an epoch's rows
	// and before committing it, and drops p on an error.
	Check(ctx context.Context, p int, gen uint64) error
	// Release hands p back (or, where the server assigns partitions,
	// forgets it until it is assigned again).
	Release(ctx context.Context, p int) error
}

// watermarker computes the keyed stream's watermark the same way in
// every owner (Tracker's comment says how).
type watermarker interface {
	// Watermark never moves back; math.MinInt64 is none yet.
	Watermark(ctx context.Context) (int64, error)
	// Floor is a file-queue sequence up to which every message is
	// acknowledged, by which owners forget file ids (0: never).
	Floor() uint64
}

// partialSink is where readers publish: Flush returns once every
// message is stored.
type partialSink interface {
	// Partial stores a file's partials for partition part; id names the
	// message for the server's duplicate detection where it has one.
	Partial(ctx context.Context, part int, id string, data []byte) error
	// Mark stores a watermark record of the reader in worker slot slot.
	Mark(ctx context.Context, slot int, id string, data []byte) error
}

var (
	_ membership  = (*Leases)(nil)
	_ watermarker = (*Tracker)(nil)
	_ partialLog  = natsLog{}
)

// natsLog is the partials stream: partition p's partials are subject
// PartSubject(stream, p), positions the stream's sequences.
type natsLog struct {
	st     jetstream.Stream
	stream string
}

func (l natsLog) Last(ctx context.Context, p int) (uint64, error) {
	last, err := l.st.GetLastMsgForSubject(ctx, PartSubject(l.stream, p))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return last.Sequence, nil
}

func (l natsLog) Reader(p int, from uint64) partialReader {
	return natsReader{newSubjectReader(l.st, PartSubject(l.stream, p), from)}
}

func (l natsLog) Trim(ctx context.Context, p int, before uint64) {
	_ = l.st.Purge(ctx, jetstream.WithPurgeSubject(PartSubject(l.stream, p)), jetstream.WithPurgeSequence(before))
}

// natsReader hands out a subjectReader's messages as partialRecs.
type natsReader struct{ r *subjectReader }

func (n natsReader) fetchWait(ctx context.Context, max int, wait time.Duration) ([]partialRec, error) {
	msgs, err := n.r.fetchWait(ctx, max, wait)
	out := make([]partialRec, 0, len(msgs))
	for _, m := range msgs {
		md, merr := m.Metadata()
		if merr != nil {
			return out, merr
		}
		out = append(out, partialRec{Seq: md.Sequence.Stream, Data: m.Data()})
	}
	return out, err
}

func (n natsReader) close(ctx context.Context) { n.r.close(ctx) }
