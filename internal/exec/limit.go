package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// ErrLimitReached is returned by an operator's Process when it will accept
// no more rows. It is not a failure: the driver stops reading input, then
// still delivers the watermark and EndEpoch so operators after the limit
// flush. Operators that receive it from out.Send stop emitting and return
// it unchanged.
var ErrLimitReached = errors.New("limit reached")

// Limit passes the first n rows after skipping offset rows, then returns
// ErrLimitReached. n < 0 means no limit (OFFSET alone).
type Limit struct {
	Base
	schema  *arrow.Schema
	n       int64
	offset  int64
	seen    int64 // rows received so far, offset included
	emitted int64
}

var (
	_ Operator = (*Limit)(nil)
	_ Stateful = (*Limit)(nil)
)

// NewLimit returns LIMIT n OFFSET offset over rows of schema.
func NewLimit(schema *arrow.Schema, n, offset int64) *Limit {
	return &Limit{schema: schema, n: n, offset: offset}
}

// Schema is the input schema.
func (l *Limit) Schema() *arrow.Schema { return l.schema }

// Process sends the part of batch that falls inside the window.
func (l *Limit) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	if l.n >= 0 && l.emitted >= l.n {
		return ErrLimitReached
	}
	rows := batch.NumRows()
	start := int64(0)
	if l.seen < l.offset {
		start = min(l.offset-l.seen, rows)
	}
	l.seen += rows
	end := rows
	if l.n >= 0 {
		end = min(rows, start+(l.n-l.emitted))
	}
	if end > start {
		l.emitted += end - start
		var err error
		if start == 0 && end == rows {
			err = out.Send(ctx, Message{Batch: batch})
		} else {
			s := batch.NewSlice(start, end)
			err = out.Send(ctx, Message{Batch: s})
			s.Release()
		}
		if err != nil {
			return err
		}
	}
	if l.n >= 0 && l.emitted >= l.n {
		return ErrLimitReached
	}
	return nil
}

// Snapshot saves the counters, so a streaming LIMIT stays satisfied.
func (l *Limit) Snapshot(w io.Writer) error {
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], uint64(l.seen))
	binary.LittleEndian.PutUint64(buf[8:], uint64(l.emitted))
	_, err := w.Write(buf[:])
	return err
}

// Restore loads what Snapshot saved.
func (l *Limit) Restore(r io.Reader) error {
	var buf [16]byte
	if _, err := io.ReadFull(r, buf[:]); err != nil {
		return fmt.Errorf("restoring limit: %w", err)
	}
	l.seen = int64(binary.LittleEndian.Uint64(buf[:8]))
	l.emitted = int64(binary.LittleEndian.Uint64(buf[8:]))
	return nil
}

// StateDescription is the limit and offset the counters count towards.
func (l *Limit) StateDescription() StateDescription {
	return StateDescription{Kind: "limit", Props: []StateProperty{
		{Name: "limit", Value: fmt.Sprint(l.n)},
		{Name: "offset", Value: fmt.Sprint(l.offset)},
	}}
}

// String is the EXPLAIN line.
func (l *Limit) String() string {
	switch {
	case l.offset > 0 && l.n >= 0:
		return fmt.Sprintf("Limit %d offset=%d", l.n, l.offset)
	case l.offset > 0:
		return fmt.Sprintf("Offset %d", l.offset)
	}
	return fmt.Sprintf("Limit %d", l.n)
}
