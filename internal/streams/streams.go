package streams

import (
	"context"
	"fmt"

	"sluice/internal/sql"
)

// Streams runs the stream statements on a Host. It keeps no state of its
// own (definitions live in the Host's catalog, runs in its job manager),
// so New is cheap and any number may share a Host.
type Streams struct {
	h Host
}

// New is Streams over h.
func New(h Host) *Streams { return &Streams{h: h} }

// Result is a statement's answer: Message, or, when Columns is set, rows
// of strings (SHOW, DESCRIBE, EXPLAIN) the Host prints redacted.
type Result struct {
	Message string
	Columns []string
	Rows    [][]string
}

// message is a Result of one message, redacted (sql.RedactText) as every
// message the engine returns is.
func message(format string, args ...any) *Result {
	return &Result{Message: sql.RedactText(fmt.Sprintf(format, args...))}
}

// stringRows is a Result of STRING columns cols.
func stringRows(cols []string, rows [][]string) *Result {
	if cols == nil {
		cols = []string{}
	}
	return &Result{Columns: cols, Rows: rows}
}

// Execute runs st when it is a stream statement (INSERT STREAM, START,
// STOP, SHOW STREAMS, DESCRIBE STREAM), names already qualified by the
// caller. ok is false for any other statement.
func (s *Streams) Execute(ctx context.Context, st sql.Statement) (r *Result, ok bool, err error) {
	switch st := st.(type) {
	case *sql.InsertStream:
		r, err = s.insertStream(ctx, st)
	case *sql.ShowStreams:
		r, err = s.showStreams(ctx)
	case *sql.DescribeStream:
		r, err = s.describeStream(ctx, st.Name)
	case *sql.StopStream:
		r, err = s.stopStream(ctx, st.Name)
	case *sql.StartStream:
		r, err = s.startStream(ctx, st.Name)
	default:
		return nil, false, nil
	}
	return r, true, err
}
