package skipindex

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// Sink folds a stream's rows (file_path, then the indexed columns in
// Columns order) into one index row per file and writes those to the
// index table's sink at Flush. A stream reads a file whole within one
// epoch, so an epoch's rows of a file are all of its rows; a replayed
// epoch rebuilds the same rows, and the index table's id (file_path)
// makes the rewrite an overwrite.
type Sink struct {
	cols    []Column
	in      *arrow.Schema
	inner   connector.Sink
	version func(ctx context.Context, uri string) (string, error)
	files   map[string]*fileAcc
	order   []string
}

var (
	_ connector.Sink          = (*Sink)(nil)
	_ connector.EpochBeginner = (*Sink)(nil)
)

// InputSchema is what the stream feeding a Sink must produce: file_path,
// then each indexed column with its table type t[i].
func InputSchema(cols []Column, t []arrow.DataType) *arrow.Schema {
	fs := []arrow.Field{{Name: FileColumn, Type: types.String, Nullable: true}}
	for i, c := range cols {
		fs = append(fs, arrow.Field{Name: c.Name, Type: t[i], Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// NewSink wraps the index table's sink; in is InputSchema's result and
// version tells a file's current version (connector.FileSkipper's
// FileVersion), recorded with its row so a rewritten file is not judged
// by its old contents. The version is taken after the epoch read the
// file: a file rewritten in between may be recorded with its new version.
func NewSink(cols []Column, in *arrow.Schema, inner connector.Sink, version func(context.Context, string) (string, error)) *Sink {
	return &Sink{cols: cols, in: in, inner: inner, version: version, files: map[string]*fileAcc{}}
}

type fileAcc struct{ cols []colAcc }

type colAcc struct {
	unknown  bool // a value the index cannot order: keep nothing
	first    any
	min, max any
	set      map[string]struct{}
	over     bool
	hashes   map[uint64]struct{}
}

// Schema is the stream's side: InputSchema.
func (s *Sink) Schema() *arrow.Schema { return s.in }

// BeginEpoch forgets a half-folded epoch (its replay starts over).
func (s *Sink) BeginEpoch(ctx context.Context, epoch int64) error {
	s.files, s.order = map[string]*fileAcc{}, nil
	if b, ok := s.inner.(connector.EpochBeginner); ok {
		return b.BeginEpoch(ctx, epoch)
	}
	return nil
}

// Write folds the batch's rows into their files' accumulators.
func (s *Sink) Write(_ context.Context, batch arrow.RecordBatch) error {
	if int(batch.NumCols()) != len(s.cols)+1 {
		return fmt.Errorf("skipping index: got %d columns, want %d", batch.NumCols(), len(s.cols)+1)
	}
	paths, ok := batch.Column(0).(*array.String)
	if !ok {
		return fmt.Errorf("skipping index: file_path is %s, not STRING", batch.Column(0).DataType())
	}
	for i := 0; i < int(batch.NumRows()); i++ {
		if paths.IsNull(i) {
			continue
		}
		f := paths.Value(i)
		acc := s.files[f]
		if acc == nil {
			acc = &fileAcc{cols: make([]colAcc, len(s.cols))}
			s.files[f] = acc
			s.order = append(s.order, f)
		}
		for j, c := range s.cols {
			ca := &acc.cols[j]
			if ca.unknown {
				continue
			}
			v, ok, supported := valueAt(batch.Column(j+1), i)
			if !supported {
				ca.unknown = true
				continue
			}
			if !ok {
				continue
			}
			ca.add(c, v)
		}
	}
	return nil
}

func (ca *colAcc) add(c Column, v any) {
	switch c.Kind {
	case Partition:
		if ca.first == nil {
			ca.first = v
		}
	case MinMax:
		if ca.min == nil || less(v, ca.min) {
			ca.min = v
		}
		if ca.max == nil || less(ca.max, v) {
			ca.max = v
		}
	case ValueSet:
		if ca.over {
			return
		}
		if ca.set == nil {
			ca.set = map[string]struct{}{}
		}
		ca.set[encodeValue(v)] = struct{}{}
		if len(ca.set) > c.Limit {
			ca.over, ca.set = true, nil
		}
	case BloomFilter:
		if ca.hashes == nil {
			ca.hashes = map[uint64]struct{}{}
		}
		ca.hashes[hashValue(v)] = struct{}{}
	}
}

// Flush writes one index row per file folded since the epoch began, then
// flushes the index table's sink for the epoch.
func (s *Sink) Flush(ctx context.Context, epoch int64) error {
	if len(s.order) > 0 {
		versions := make([]string, len(s.order))
		for i, f := range s.order {
			v, err := s.version(ctx, f)
			if err != nil {
				return fmt.Errorf("skipping index: %w", err)
			}
			versions[i] = v
		}
		rec := s.indexRows(versions)
		err := s.inner.Write(ctx, rec)
		rec.Release()
		if err != nil {
			return fmt.Errorf("skipping index: writing %d file entries: %w", len(s.order), err)
		}
	}
	s.files, s.order = map[string]*fileAcc{}, nil
	return s.inner.Flush(ctx, epoch)
}

// Close closes the index table's sink.
func (s *Sink) Close() error { return s.inner.Close() }

func (s *Sink) indexRows(versions []string) arrow.RecordBatch {
	schema := Schema(s.cols)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	str := func(i int) *array.StringBuilder { return b.Field(i).(*array.StringBuilder) }
	put := func(i int, v string, null bool) {
		if null {
			str(i).AppendNull()
		} else {
			str(i).Append(v)
		}
	}
	for fi, f := range s.order {
		acc := s.files[f]
		str(0).Append(f)
		str(1).Append(versions[fi])
		i := 2
		for j, c := range s.cols {
			ca := acc.cols[j]
			switch c.Kind {
			case Partition:
				put(i, encodeValue(ca.first), ca.unknown || ca.first == nil)
			case MinMax:
				put(i, encodeValue(ca.min), ca.unknown || ca.min == nil)
				i++
				put(i, encodeValue(ca.max), ca.unknown || ca.max == nil)
			case ValueSet:
				vals := make([]string, 0, len(ca.set))
				for v := range ca.set {
					vals = append(vals, v)
				}
				slices.Sort(vals)
				raw, _ := json.Marshal(vals)
				put(i, string(raw), ca.unknown || ca.over)
			case BloomFilter:
				n := len(ca.hashes)
				if !c.Adaptive {
					n = c.Items
				}
				bf := NewBloom(n, c.FPP)
				for h := range ca.hashes {
					bf.addHash(h)
				}
				put(i, bf.encode(), ca.unknown)
			}
			i++
		}
	}
	return b.NewRecordBatch()
}
