package partition

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/queue"
)

// Subjects and names of a keyed stream's JetStream objects.
func streamName(stream string) string { return "sluice-" + stream }

// PartSubject is where partition p's partials go.
func PartSubject(stream string, p int) string { return "sluice." + stream + ".p." + strconv.Itoa(p) }

// WatermarkSubject is where the reader in worker slot slot records each
// file's largest event time: one subject per slot, of which the
// watermark stream keeps only the newest record.
func WatermarkSubject(stream string, slot int) string {
	return "sluicewm." + stream + "." + strconv.Itoa(slot)
}

// WatermarkFilter matches every slot's watermark subject.
func WatermarkFilter(stream string) string { return "sluicewm." + stream + ".*" }

// legacyWatermarkSubject is where records went before they had a stream
// of their own (in the partials' stream, never purged).
func legacyWatermarkSubject(stream string) string { return "sluice." + stream + ".wm" }

// BucketName is the lease bucket of a stream.
func BucketName(stream string) string { return "sluice-" + stream }

// EnsureStream creates the JetStream stream holding a keyed stream's
// partials (file storage, kept until deleted: owners replay from
// committed sequences) with replicas replicas (0: the server's default)
// when it is missing; an existing one is only checked
// (queue.EnsureStream).
func EnsureStream(ctx context.Context, js jetstream.JetStream, stream string, replicas int) (jetstream.Stream, error) {
	cfg := jetstream.StreamConfig{Name: streamName(stream), Subjects: []string{"sluice." + stream + ".>"},
		Storage: jetstream.FileStorage, Duplicates: 2 * time.Minute, Replicas: replicas}
	return queue.EnsureStream(ctx, js, cfg)
}

// EnsureWatermarkStream creates the JetStream stream of a keyed stream's
// watermark records: one subject per reader slot, only the newest
// message of each kept (MaxMsgsPerSubject 1), so it holds at most one
// record per slot however long the stream runs. A record replaced
// before an owner read it only holds that owner's watermark back (the
// newest record of the slot stands for it once acknowledged); owners
// keep their partitions' watermarks in their checkpoints. Records left
// in the partials' stream by earlier versions are purged. Created with
// replicas as EnsureStream is; an existing one is only checked.
func EnsureWatermarkStream(ctx context.Context, js jetstream.JetStream, stream string, replicas int) (jetstream.Stream, error) {
	cfg := jetstream.StreamConfig{Name: streamName(stream) + "-wm", Subjects: []string{WatermarkFilter(stream)},
		Storage: jetstream.FileStorage, MaxMsgsPerSubject: 1, Duplicates: 2 * time.Minute, Replicas: replicas}
	st, err := queue.EnsureStream(ctx, js, cfg)
	if err != nil {
		return nil, err
	}
	if parts, err := js.Stream(ctx, streamName(stream)); err == nil {
		_ = parts.Purge(ctx, jetstream.WithPurgeSubject(legacyWatermarkSubject(stream)))
	}
	return st, nil
}

// Slotted is a reader source that knows its worker slot
// (file.StreamSource).
type Slotted interface {
	WorkerSlot() int
}

// partialMsg is one file's partials for one partition.
type partialMsg struct {
	// File names the input file (its sink epoch id: a hash of key and
	// ETag), so an owner folds a file into a window once.
	File     int64           `json:"file"`
	Partials []partialWindow `json:"partials"`
	// QSeq is the largest queue sequence of the messages that named the
	// file, Listed whether the first listing did: an owner forgets the
	// file once QSeq is acknowledged, unless Listed (or both are zero:
	// unknown), and drops a later partial whose QSeq is at or below what
	// it forgot (docs/scale-out.md, "Bounded file-id sets").
	QSeq   uint64 `json:"qseq,omitempty"`
	Listed bool   `json:"listed,omitempty"`
}

type partialWindow struct {
	Start int64  `json:"start"`
	End   int64  `json:"end"`
	State []byte `json:"state"`
}

// wmMsg is a file's largest event time, by the queue sequence of the
// message that named it.
type wmMsg struct {
	QueueSeq uint64 `json:"qseq"`
	MaxEvent int64  `json:"max_event"`
}

// HeldSeqs finds the queue sequences of the messages held for the file
// of a sink epoch id (file.StreamSource implements it).
type HeldSeqs interface {
	HeldSeqsFor(epoch int64) []uint64
}

// EventSeqs finds every queue sequence known to have named the file of a
// sink epoch id, including those a replayed epoch's offsets recorded,
// and whether the first listing named it (file.StreamSource implements
// it).
type EventSeqs interface {
	EventSeqsFor(epoch int64) (seqs []uint64, listed bool)
}

// Publisher is the readers' sink: the reader plan ends in a
// WindowPartitioner instead of the window aggregate, and at each epoch's
// flush (one file) the publisher sends that file's partials, one message
// per partition with message id <stream>#<file>#<partition>[#q<queue
// sequence>], then the
// file's largest event time, and returns only once JetStream stored them
// all: the file's queue message is acknowledged after the epoch commits,
// so after this.
type Publisher struct {
	JS        jetstream.JetStream
	Stream    string
	Part      *exec.WindowPartitioner
	EventTime *exec.EventTime
	Seqs      HeldSeqs
	// Events tags each partial with its file's queue sequences (nil: no
	// tag, the file is never forgotten).
	Events EventSeqs
	// out is where the messages go over Kafka (nil: JetStream, JS).
	out    partialSink
	schema *arrow.Schema
	epoch  int64
}

var (
	_ connector.Sink          = (*Publisher)(nil)
	_ connector.EpochBeginner = (*Publisher)(nil)
)

// Schema is the partitioner's.
func (p *Publisher) Schema() *arrow.Schema { return p.Part.Schema() }

// BeginEpoch remembers the epoch's file id.
func (p *Publisher) BeginEpoch(_ context.Context, epoch int64) error {
	p.epoch = epoch
	p.Part.Discard()
	return nil
}

// Write takes nothing: the partitioner emits no rows.
func (p *Publisher) Write(context.Context, arrow.RecordBatch) error { return nil }

// Flush publishes the epoch's partials and watermark record.
func (p *Publisher) Flush(ctx context.Context, epoch int64) error {
	parts, err := p.Part.Take()
	if err != nil {
		return err
	}
	var qseq uint64
	var listed bool
	if p.Events != nil {
		var seqs []uint64
		seqs, listed = p.Events.EventSeqsFor(epoch)
		for _, q := range seqs {
			qseq = max(qseq, q)
		}
	}
	byPart := map[int]*partialMsg{}
	var order []int
	for _, wp := range parts {
		m := byPart[wp.Partition]
		if m == nil {
			m = &partialMsg{File: epoch, QSeq: qseq, Listed: listed}
			byPart[wp.Partition] = m
			order = append(order, wp.Partition)
		}
		m.Partials = append(m.Partials, partialWindow{Start: wp.Start, End: wp.End, State: wp.State})
	}
	for _, part := range order {
		data, err := json.Marshal(byPart[part])
		if err != nil {
			return err
		}
		id := fmt.Sprintf("%s#%d#%d", p.Stream, epoch, part)
		if qseq > 0 {
			// Readings of the file for different messages are all
			// stored, so the owner learns every message that named it
			// (and keeps the file until the last is acknowledged);
			// copies for the same message are dropped here.
			id += "#q" + strconv.FormatUint(qseq, 10)
		}
		if err := p.sink().Partial(ctx, part, id, data); err != nil {
			return err
		}
	}
	if p.Seqs == nil || p.EventTime == nil {
		return nil
	}
	slot := 0
	if s, ok := p.Seqs.(Slotted); ok {
		slot = s.WorkerSlot()
	}
	for _, seq := range p.Seqs.HeldSeqsFor(epoch) {
		data, _ := json.Marshal(wmMsg{QueueSeq: seq, MaxEvent: p.EventTime.MaxEvent()})
		if err := p.sink().Mark(ctx, slot, fmt.Sprintf("%s#%d#wm%d", p.Stream, epoch, seq), data); err != nil {
			return err
		}
	}
	return nil
}

func (p *Publisher) sink() partialSink {
	if p.out != nil {
		return p.out
	}
	return natsSink{js: p.JS, stream: p.Stream}
}

// natsSink publishes to the partials and watermark streams, each
// message under its id (JetStream drops a copy within its duplicate
// window).
type natsSink struct {
	js     jetstream.JetStream
	stream string
}

var _ partialSink = natsSink{}

func (n natsSink) Partial(ctx context.Context, part int, id string, data []byte) error {
	return n.publish(ctx, PartSubject(n.stream, part), id, data)
}

func (n natsSink) Mark(ctx context.Context, slot int, id string, data []byte) error {
	return n.publish(ctx, WatermarkSubject(n.stream, slot), id, data)
}

func (n natsSink) publish(ctx context.Context, subject, id string, data []byte) error {
	msg := &nats.Msg{Subject: subject, Data: data, Header: nats.Header{}}
	msg.Header.Set(jetstream.MsgIDHeader, id)
	if _, err := n.js.PublishMsg(ctx, msg); err != nil {
		return fmt.Errorf("publishing partials to %s: %w", subject, queue.NATSError(err))
	}
	return nil
}

// Close does nothing: the connection is the caller's.
func (p *Publisher) Close() error { return nil }
