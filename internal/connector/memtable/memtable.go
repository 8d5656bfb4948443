// Package memtable is an in-memory source over record batches the caller
// already holds: VALUES lists, FROM-less SELECT, join build sides and tests.
//
// Each batch is one split, so the driver can read them in parallel and a
// LIMIT can stop early. The offset is the number of batches, which makes
// the table usable as a streaming source too: Append adds batches, Latest
// moves forward, and Plan(from, to) replays exactly the batches in between.
//
//	t := memtable.New(schema, []arrow.RecordBatch{b1, b2})
//	latest, _ := t.Latest(ctx)             // 2
//	splits, _ := t.Plan(ctx, nil, latest)  // two splits, one per batch
//	r, _ := t.Open(ctx, splits[0])         // yields b1 (retained for the caller), then io.EOF
package memtable

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
)

// Table is an in-memory source. It retains the batches it is given until
// Release.
type Table struct {
	name   string
	schema *arrow.Schema

	mu      sync.Mutex
	batches []arrow.RecordBatch
}

var (
	_ connector.Source    = (*Table)(nil)
	_ connector.Describer = (*Table)(nil)
)

// New returns a table over batches (retained) with the given schema.
func New(schema *arrow.Schema, batches []arrow.RecordBatch) *Table {
	t := &Table{name: "memory", schema: schema}
	for _, b := range batches {
		b.Retain()
		t.batches = append(t.batches, b)
	}
	return t
}

// Named is New with a name shown in EXPLAIN and errors (e.g. "values").
func Named(name string, schema *arrow.Schema, batches []arrow.RecordBatch) *Table {
	t := New(schema, batches)
	t.name = name
	return t
}

// Append adds batches (retained); they become visible at the next Latest.
func (t *Table) Append(batches ...arrow.RecordBatch) error {
	for _, b := range batches {
		if !b.Schema().Equal(t.schema) {
			return fmt.Errorf("memtable %s: appending batch with schema %s, want %s", t.name, b.Schema(), t.schema)
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range batches {
		b.Retain()
		t.batches = append(t.batches, b)
	}
	return nil
}

// Release drops the table's references to its batches.
func (t *Table) Release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range t.batches {
		b.Release()
	}
	t.batches = nil
}

// Schema returns the table's schema.
func (t *Table) Schema() *arrow.Schema { return t.schema }

// Latest returns the number of batches as a JSON number.
func (t *Table) Latest(ctx context.Context) (connector.Offset, error) {
	t.mu.Lock()
	n := len(t.batches)
	t.mu.Unlock()
	return connector.Offset(strconv.Itoa(n)), nil
}

// Plan returns one split per batch in [from, to); nil from is the start.
func (t *Table) Plan(ctx context.Context, from, to connector.Offset) ([]connector.Split, error) {
	lo, err := parseOffset(from, 0)
	if err != nil {
		return nil, fmt.Errorf("memtable %s: planning: %w", t.name, err)
	}
	t.mu.Lock()
	n := len(t.batches)
	t.mu.Unlock()
	hi, err := parseOffset(to, n)
	if err != nil {
		return nil, fmt.Errorf("memtable %s: planning: %w", t.name, err)
	}
	if lo < 0 || hi > n || lo > hi {
		return nil, fmt.Errorf("memtable %s: planning: offsets %d..%d out of range 0..%d", t.name, lo, hi, n)
	}
	splits := make([]connector.Split, 0, hi-lo)
	for i := lo; i < hi; i++ {
		splits = append(splits, Split{Table: t.name, Index: i, Bytes: connector.BatchBytes(t.batch(i))})
	}
	return splits, nil
}

func (t *Table) batch(i int) arrow.RecordBatch {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.batches[i]
}

// Open yields the split's batch once. The batch is retained for the
// caller, who owns it as the RecordReader contract says.
func (t *Table) Open(ctx context.Context, split connector.Split) (connector.RecordReader, error) {
	s, ok := split.(Split)
	if !ok {
		return nil, fmt.Errorf("memtable %s: opening split %s: not a memtable split", t.name, split.ID())
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.Index < 0 || s.Index >= len(t.batches) {
		return nil, fmt.Errorf("memtable %s: opening split %s: no such batch", t.name, s.ID())
	}
	return connector.BatchReader(t.batches[s.Index]), nil
}

// Describe is the table's EXPLAIN text.
func (t *Table) Describe() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var rows int64
	for _, b := range t.batches {
		rows += b.NumRows()
	}
	return fmt.Sprintf("%s batches=%d rows=%d", t.name, len(t.batches), rows)
}

func parseOffset(o connector.Offset, def int) (int, error) {
	if len(o) == 0 || string(o) == "null" {
		return def, nil
	}
	var n int
	if err := json.Unmarshal(o, &n); err != nil {
		return 0, fmt.Errorf("bad offset %q: %w", string(o), err)
	}
	return n, nil
}

// Split is one batch of a Table.
type Split struct {
	Table string
	Index int
	Bytes int64
}

// ID is "<table>/<index>".
func (s Split) ID() string { return s.Table + "/" + strconv.Itoa(s.Index) }

// Size is the batch's buffer size in bytes.
func (s Split) Size() int64 { return s.Bytes }
