// Package toy is a tiny in-memory connector for the conformance suite's
// own tests: adding it to the suite's list is the one line it takes to
// run every check against a new connector, and its Broken forms are
// connectors with a known bug, which the suite must catch.
//
//	conformance.Run(t, append(registry.All(), toy.Factory()))
package toy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"sluice/internal/connector"
	"sluice/internal/expr"
)

// The bugs a Broken toy can have.
const (
	// DuplicateOnReplay: Flush appends an epoch's rows instead of
	// replacing what an earlier attempt of the epoch stored.
	DuplicateOnReplay = "duplicate-on-replay"
	// LossyFilter: a pushed filter also drops the last row of each batch.
	LossyFilter = "lossy-filter"
	// Undeclared: the Factory declares no capabilities.
	Undeclared = "undeclared"
)

// Factory is the toy connector: tables are kept in memory, by name.
func Factory() *connector.Factory { return newFactory("toy", "") }

// Broken is the toy with one bug (DuplicateOnReplay, LossyFilter or
// Undeclared).
func Broken(bug string) *connector.Factory { return newFactory("toy-"+bug, bug) }

func newFactory(name, bug string) *connector.Factory {
	store := &store{tables: map[string]*table{}}
	f := &connector.Factory{
		Name:        name,
		Kind:        connector.KindBoth,
		OptionKeys:  []string{"max_rows"},
		Description: "an in-memory table (tests)",
		NewSource: func(_ context.Context, spec connector.TableSpec) (connector.Source, error) {
			if spec.Schema == nil {
				return nil, fmt.Errorf("toy table %s has no schema", spec.Name)
			}
			return &source{t: store.get(spec.Name), schema: spec.Schema, bug: bug}, nil
		},
		NewSink: func(_ context.Context, spec connector.TableSpec, _ connector.SinkOptions) (connector.Sink, error) {
			if spec.Schema == nil {
				return nil, fmt.Errorf("toy table %s has no schema", spec.Name)
			}
			max := 0
			if v := spec.Options["max_rows"]; v != "" {
				max, _ = strconv.Atoi(v)
			}
			return &sink{t: store.get(spec.Name), schema: spec.Schema, bug: bug, max: max}, nil
		},
		Validate: func(opts map[string]string) error {
			if v, ok := opts["max_rows"]; ok {
				if n, err := strconv.Atoi(v); err != nil || n <= 0 {
					return fmt.Errorf("option max_rows: %q is not a positive integer", v)
				}
			}
			return nil
		},
		Drop: func(_ context.Context, spec connector.TableSpec) error {
			store.drop(spec.Name)
			return nil
		},
		Conformance: &connector.Capabilities{ReadBack: true, ReplaySafe: true,
			Types: []string{"BOOLEAN", "INT", "BIGINT", "DOUBLE", "DECIMAL", "STRING", "BINARY", "DATE", "TIMESTAMP", "ARRAY", "MAP", "STRUCT"}},
	}
	if bug == Undeclared {
		f.Conformance = nil
	}
	return f
}

type store struct {
	mu     sync.Mutex
	tables map[string]*table
}

func (s *store) get(name string) *table {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tables[name]
	if t == nil {
		t = &table{epochs: map[int64][]arrow.RecordBatch{}}
		s.tables[name] = t
	}
	return t
}

func (s *store) drop(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tables[name]; t != nil {
		t.mu.Lock()
		t.epochs, t.order = map[int64][]arrow.RecordBatch{}, nil
		t.mu.Unlock()
	}
}

// table is the committed batches of each epoch.
type table struct {
	mu     sync.Mutex
	epochs map[int64][]arrow.RecordBatch
	order  []int64
}

func (t *table) all() []arrow.RecordBatch {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []arrow.RecordBatch
	for _, e := range t.order {
		out = append(out, t.epochs[e]...)
	}
	return out
}

// sink buffers an epoch's batches; Flush replaces what the epoch held,
// so a replay overwrites.
type sink struct {
	t      *table
	schema *arrow.Schema
	bug    string
	max    int
	buf    []arrow.RecordBatch
}

var (
	_ connector.Sink          = (*sink)(nil)
	_ connector.EpochBeginner = (*sink)(nil)
)

func (s *sink) Schema() *arrow.Schema { return s.schema }

func (s *sink) BeginEpoch(context.Context, int64) error {
	s.buf = nil
	return nil
}

func (s *sink) Write(_ context.Context, b arrow.RecordBatch) error {
	if int(b.NumCols()) != s.schema.NumFields() {
		return fmt.Errorf("toy: batch has %d columns, the table %d", b.NumCols(), s.schema.NumFields())
	}
	b.Retain()
	s.buf = append(s.buf, b)
	return nil
}

func (s *sink) Flush(_ context.Context, epoch int64) error {
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	if _, ok := s.t.epochs[epoch]; !ok {
		s.t.order = append(s.t.order, epoch)
	}
	if s.bug == DuplicateOnReplay {
		s.t.epochs[epoch] = append(s.t.epochs[epoch], s.buf...)
	} else {
		s.t.epochs[epoch] = s.buf
	}
	s.buf = nil
	return nil
}

func (s *sink) Close() error {
	s.buf = nil
	return nil
}

// source reads every committed batch, applying pushed projections and
// filters in the order they were pushed.
type source struct {
	t      *table
	schema *arrow.Schema
	bug    string
	steps  []step
	pushed []string
}

// step is a projection (cols) or a filter (pred).
type step struct {
	cols []int
	pred expr.Expr
}

var (
	_ connector.ProjectionPusher = (*source)(nil)
	_ connector.FilterPusher     = (*source)(nil)
	_ connector.Describer        = (*source)(nil)
)

func (s *source) Schema() *arrow.Schema { return s.schema }

func (s *source) Latest(context.Context) (connector.Offset, error) { return connector.Offset(`1`), nil }

func (s *source) Plan(_ context.Context, from, to connector.Offset) ([]connector.Split, error) {
	if len(from) > 0 && bytes.Equal(from, to) {
		return nil, nil
	}
	return []connector.Split{split{}}, nil
}

type split struct{}

func (split) ID() string  { return "toy" }
func (split) Size() int64 { return 0 }

func (s *source) PushProjection(columns []string) (connector.Source, error) {
	var idx []int
	var fields []arrow.Field
	for _, c := range columns {
		i := s.schema.FieldIndices(c)
		if len(i) == 0 {
			return nil, fmt.Errorf("toy: no column %s", c)
		}
		idx = append(idx, i[0])
		fields = append(fields, s.schema.Field(i[0]))
	}
	n := *s
	n.schema = arrow.NewSchema(fields, nil)
	n.steps = append(append([]step(nil), s.steps...), step{cols: idx})
	n.pushed = append(append([]string(nil), s.pushed...), "columns=["+strings.Join(columns, ", ")+"]")
	return &n, nil
}

func (s *source) PushFilter(pred expr.Expr) (connector.Source, error) {
	n := *s
	n.steps = append(append([]step(nil), s.steps...), step{pred: pred})
	n.pushed = append(append([]string(nil), s.pushed...), "filter="+pred.String())
	return &n, nil
}

func (s *source) Describe() string { return "toy " + strings.Join(s.pushed, " ") }

func (s *source) Open(ctx context.Context, _ connector.Split) (connector.RecordReader, error) {
	var out []arrow.RecordBatch
	for _, b := range s.t.all() {
		b.Retain()
		for _, st := range s.steps {
			nb, err := s.apply(ctx, st, b)
			b.Release()
			if err != nil {
				return nil, err
			}
			b = nb
		}
		out = append(out, b)
	}
	return &reader{batches: out}, nil
}

// apply runs one step over b.
func (s *source) apply(ctx context.Context, st step, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	if st.pred == nil {
		cols := make([]arrow.Array, len(st.cols))
		fields := make([]arrow.Field, len(st.cols))
		for i, c := range st.cols {
			cols[i], fields[i] = b.Column(c), b.Schema().Field(c)
		}
		return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows()), nil
	}
	m, err := st.pred.Eval(ctx, b)
	if err != nil {
		return nil, fmt.Errorf("toy: filter %s: %w", st.pred, err)
	}
	defer m.Release()
	mask := m.(*array.Boolean)
	if s.bug == LossyFilter && mask.Len() > 0 {
		// The bug: an off-by-one that never keeps a batch's last row.
		mask = array.NewSlice(mask, 0, int64(mask.Len()-1)).(*array.Boolean)
		defer mask.Release()
		b = b.NewSlice(0, b.NumRows()-1)
		defer b.Release()
	}
	return compute.FilterRecordBatch(ctx, b, mask, compute.DefaultFilterOptions())
}

type reader struct{ batches []arrow.RecordBatch }

func (r *reader) Next(context.Context) (arrow.RecordBatch, error) {
	if len(r.batches) == 0 {
		return nil, io.EOF
	}
	b := r.batches[0]
	r.batches = r.batches[1:]
	return b, nil
}

func (r *reader) Close() error { return nil }
