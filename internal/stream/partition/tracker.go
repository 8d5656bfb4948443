package partition

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Tracker computes a keyed stream's watermark the same way in every
// owner: the largest event time of the files whose queue messages are
// all acknowledged (the file consumer's ack floor), minus the delay. A
// file is acknowledged only after its partials are stored, so when the
// watermark passes a window's end every partial of that window from
// those files is already in its partition's subject; files not yet
// acknowledged (held by a dead reader, redelivered) hold it back instead
// of arriving late. With files arriving in event-time order nothing is
// late; rows older than the watermark of a file read out of order are
// late as in one process.
type Tracker struct {
	Files   jetstream.Consumer // the file queue's durable consumer
	Records jetstream.Stream   // the watermark records' stream (EnsureWatermarkStream)
	Wm      string             // the subjects to read (WatermarkFilter)
	Delay   int64              // µs

	mu      sync.Mutex
	in      *subjectReader
	pending map[uint64]int64 // queue seq -> max event, above the floor
	floor   uint64
	done    int64 // max event at or below the floor
	wm      int64
}

// NewTracker starts with no file done.
func NewTracker(files jetstream.Consumer, records jetstream.Stream, subject string, delay int64) *Tracker {
	return &Tracker{Files: files, Records: records, Wm: subject, Delay: delay, pending: map[uint64]int64{},
		done: math.MinInt64, wm: math.MinInt64}
}

// Watermark reads the ack floor, then every watermark record stored up
// to now, and returns the watermark (math.MinInt64: none yet). It never
// moves back.
func (t *Tracker) Watermark(ctx context.Context) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	info, err := t.Files.Info(ctx)
	if err != nil {
		return t.wm, fmt.Errorf("file queue ack floor: %w", err)
	}
	floor := info.AckFloor.Stream
	// The records' stream holds only them: its last sequence is the
	// newest record's.
	rinfo, err := t.Records.Info(ctx)
	if err != nil {
		return t.wm, fmt.Errorf("watermark records: %w", err)
	}
	lastSeq := rinfo.State.LastSeq
	if rinfo.State.Msgs == 0 {
		lastSeq = 0
	}
	if lastSeq > 0 && (t.in == nil || lastSeq >= t.in.next) {
		if err := t.readTo(ctx, lastSeq); err != nil {
			return t.wm, err
		}
	}
	if floor > t.floor {
		t.floor = floor
	}
	for seq, m := range t.pending {
		if seq <= t.floor {
			if m > t.done {
				t.done = m
			}
			delete(t.pending, seq)
		}
	}
	if t.done != math.MinInt64 && t.done-t.Delay > t.wm {
		t.wm = t.done - t.Delay
	}
	return t.wm, nil
}

// Floor is the file consumer's ack floor as of the last Watermark: every
// queue message up to it is acknowledged.
func (t *Tracker) Floor() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.floor
}

// readTo folds watermark records up to stream sequence last.
func (t *Tracker) readTo(ctx context.Context, last uint64) error {
	if t.in == nil {
		t.in = newSubjectReader(t.Records, t.Wm, 1)
	}
	for t.in.next <= last {
		msgs, err := t.in.fetchWait(ctx, 500, 2*time.Second)
		if err != nil {
			return fmt.Errorf("watermark records: %w", err)
		}
		if len(msgs) == 0 {
			return fmt.Errorf("watermark records: nothing delivered up to sequence %d", last)
		}
		for _, m := range msgs {
			var w wmMsg
			if json.Unmarshal(m.Data(), &w) == nil && w.MaxEvent != math.MinInt64 {
				if old, ok := t.pending[w.QueueSeq]; !ok || w.MaxEvent > old {
					t.pending[w.QueueSeq] = w.MaxEvent
				}
			}
		}
	}
	return nil
}
