package server

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"sluice/internal/sql"
)

// asyncOutcome is what a batch async statement left: its message, or its
// rows, written to the query's result file.
type asyncOutcome struct {
	message   string
	rows      int
	hasResult bool
	// drain, when set, ends the statement's query and waits for it: the
	// caller records the outcome first, so a query cut off by a limit
	// or DELETE reads FAILED or CANCELLED at once, not when an operator
	// next looks at its context.
	drain func()
}

// runAsyncBatch runs a batch statement of the async API under the same
// limits as a sync one: ctx carries --query-timeout, and the result goes
// to disk batch by batch as it is produced (a SELECT streams, so its rows
// are never all in memory), refused past --max-rows (the async GET
// answers every row at once, so it cannot page) and --max-result-bytes.
func (s *Server) runAsyncBatch(ctx context.Context, id string, st sql.Statement) (asyncOutcome, error) {
	rows, ok, err := s.eng.OpenRows(ctx, st, cursorBuffer)
	if err != nil {
		return asyncOutcome{}, err
	}
	if ok {
		n, err := s.async.store.writeResult(id, rows.Schema(), s.limits, func() (arrow.RecordBatch, error) { return rows.Next(ctx) })
		return asyncOutcome{rows: n, hasResult: err == nil, drain: rows.Close}, err
	}
	res, err := s.eng.ExecuteStatement(ctx, st)
	if err != nil {
		return asyncOutcome{}, err
	}
	if res.Schema == nil {
		return asyncOutcome{message: res.Message}, nil
	}
	batches := res.Batches
	n, err := s.async.store.writeResult(id, res.Schema, s.limits, func() (arrow.RecordBatch, error) {
		for len(batches) > 0 {
			b := batches[0]
			batches = batches[1:]
			if b != nil {
				b.Retain() // writeResult releases what next returns
				return b, nil
			}
		}
		return nil, io.EOF
	})
	return asyncOutcome{message: res.Message, rows: n, hasResult: err == nil}, err
}

// asyncRowsError is an async result over --max-rows.
type asyncRowsError struct{ limit int }

func (e *asyncRowsError) Error() string {
	return fmt.Sprintf("the result has more than %d rows, the server's limit (--max-rows): an async result is answered whole, so add a LIMIT, or page it with /_plugins/_sql and fetch_size", e.limit)
}

// resultBytesError is an async result over --max-result-bytes on disk.
type resultBytesError struct{ limit int64 }

func (e *resultBytesError) Error() string {
	return fmt.Sprintf("the result is larger than the server's limit of %d bytes on disk (--max-result-bytes): add a LIMIT or select fewer columns", e.limit)
}

// limitErr is the limit a result write ran into, if any.
func limitErr(err error) error {
	var re *asyncRowsError
	var be *resultBytesError
	switch {
	case errors.As(err, &re):
		return re
	case errors.As(err, &be):
		return be
	}
	return nil
}

// cappedWriter refuses a write that would take it past limit bytes,
// writing none of it, so a file never grows past the limit.
type cappedWriter struct {
	w     io.Writer
	n     int64
	limit int64
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	if c.n+int64(len(p)) > c.limit {
		return 0, &resultBytesError{limit: c.limit}
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// writeResult keeps a statement's rows beside its record: the batches
// next returns (each released once written) until io.EOF, as an Arrow
// IPC stream with zstd-compressed buffers. Past limits.MaxRows rows or
// limits.MaxResultBytes bytes it stops with that limit's error and
// leaves no file.
func (a *asyncStore) writeResult(id string, schema *arrow.Schema, limits Limits, next func() (arrow.RecordBatch, error)) (int, error) {
	rows := 0
	var qerr error // the statement's own failure, not the file's
	err := a.writeFile(id+".arrow", func(w io.Writer) error {
		wr := ipc.NewWriter(&cappedWriter{w: w, limit: limits.MaxResultBytes}, ipc.WithSchema(schema), ipc.WithZstd())
		for {
			b, err := next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				qerr = err
				return err
			}
			rows += int(b.NumRows())
			if rows > limits.MaxRows {
				b.Release()
				return &asyncRowsError{limit: limits.MaxRows}
			}
			err = wr.Write(b)
			b.Release()
			if err != nil {
				return err
			}
		}
		return wr.Close()
	})
	if qerr != nil {
		return 0, qerr
	}
	if le := limitErr(err); le != nil {
		return 0, le // said once: the limit, not the file it was for
	}
	return rows, err
}
