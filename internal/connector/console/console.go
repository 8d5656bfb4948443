// Package console is the demo sink: every row written is printed at once
// as one JSON line (the format package's JSON-lines encoding) on standard
// output, or on the writer the caller gives.
//
//	CREATE TABLE out (status INT, n BIGINT) USING console;
//	INSERT INTO out SELECT status, count(*) FROM logs GROUP BY status;
//	-- prints {"status":200,"n":17} and so on, one line a row
package console

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/format"
)

// OptionKeys lists the OPTIONS a console table accepts (none).
func OptionKeys() []string { return nil }

// Sink prints rows as they are written. Writes from several goroutines
// are serialized batch by batch, so lines never interleave.
type Sink struct {
	schema *arrow.Schema
	w      io.Writer
	mu     *sync.Mutex
	buf    bytes.Buffer
}

var (
	_ connector.Sink      = (*Sink)(nil)
	_ connector.Describer = (*Sink)(nil)
)

// stdoutMu serializes every console sink writing to standard output.
var stdoutMu sync.Mutex

// NewSink prints to standard output.
func NewSink(_ context.Context, spec connector.TableSpec, _ connector.SinkOptions) (*Sink, error) {
	return &Sink{schema: spec.Schema, w: os.Stdout, mu: &stdoutMu}, nil
}

// NewSinkTo prints to w (tests, the HTTP server).
func NewSinkTo(schema *arrow.Schema, w io.Writer) *Sink {
	return &Sink{schema: schema, w: w, mu: &sync.Mutex{}}
}

// Schema is the table's schema (nil for a table declared without columns).
func (s *Sink) Schema() *arrow.Schema { return s.schema }

// Write prints the batch's rows, one JSON object a line.
func (s *Sink) Write(_ context.Context, batch arrow.RecordBatch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Reset()
	w, err := format.NewWriter(&s.buf, batch.Schema(), format.Options{Format: "json"})
	if err != nil {
		return err
	}
	if err := w.Write(batch); err != nil {
		return fmt.Errorf("console: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("console: %w", err)
	}
	if _, err := s.w.Write(s.buf.Bytes()); err != nil {
		return fmt.Errorf("console: %w", err)
	}
	return nil
}

// Flush has nothing to do: rows are printed as they are written.
func (s *Sink) Flush(context.Context, int64) error { return nil }

// Close does nothing; standard output stays open.
func (s *Sink) Close() error { return nil }

// Describe is for EXPLAIN.
func (s *Sink) Describe() string { return "console (JSON lines on stdout)" }
