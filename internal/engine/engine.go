// Package engine is Sluice's facade: SQL text in, results or running
// queries out. It owns the catalog, plans statements, and runs them on the
// exec driver.
//
//	eng, _ := engine.Open(engine.Options{DataDir: "./sluice-data"})
//	defer eng.Close()
//	res, _ := eng.Execute(ctx, "SELECT status, count(*) FROM logs GROUP BY status")
//	for _, r := range res { fmt.Println(r.Schema, len(r.Batches)) }
package engine

import (
	"context"
	"errors"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// Options configure an Engine.
type Options struct {
	// DataDir holds the catalog, local indices and default checkpoints.
	DataDir string
	// Now fixes now()/current_date for deterministic tests; nil means time.Now.
	Now func() time.Time
	// Progress, when set, is told about files and bytes scanned by batch
	// queries (the CLI draws a progress bar from it).
	Progress func(Progress)
	// Parallelism bounds concurrent file reads; 0 means GOMAXPROCS.
	Parallelism int
}

// Progress is a snapshot of a running scan.
type Progress struct {
	FilesDone, FilesTotal int
	BytesDone, BytesTotal int64
	RowsRead              int64
}

// Result is what one statement produced: rows (Schema != nil) or a
// message ("table created", "3 rows inserted").
type Result struct {
	// Statement is the statement's source text.
	Statement string
	Schema    *arrow.Schema
	Batches   []arrow.RecordBatch
	Message   string
}

// ErrNotSupported wraps statements the parser knows but this build cannot
// run yet.
var ErrNotSupported = errors.New("not supported yet")

// Engine runs statements. It is safe for concurrent use.
type Engine struct {
	opts Options
}

// Open opens (creating if needed) the data directory and its catalog.
func Open(opts Options) (*Engine, error) {
	return &Engine{opts: opts}, nil
}

// Close releases the engine's resources.
func (e *Engine) Close() error { return nil }

// Execute runs every statement of a script in order and stops at the
// first error, returning the results of the statements before it.
func (e *Engine) Execute(ctx context.Context, script string) ([]*Result, error) {
	return nil, ErrNotSupported
}
