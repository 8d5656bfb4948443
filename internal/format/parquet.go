package format

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"sluice/internal/types"
)

// ColumnStats are one column's statistics in one Parquet row group, as Go
// values: int64, float64, string, bool; TIMESTAMP as int64 microseconds,
// DATE as int64 days since the epoch.
type ColumnStats struct {
	Min, Max  any
	NullCount int64
	// HasMinMax is false when the file recorded no usable min/max.
	HasMinMax bool
}

// RowGroupStats describes one Parquet row group for Options.RowGroupFilter.
type RowGroupStats struct {
	Index   int   // row group number in the file
	NumRows int64 // rows in the group
	// Columns holds the top-level primitive columns by their file name.
	Columns map[string]ColumnStats
}

// Column returns a column's statistics, matched exactly then
// case-insensitively. ok is false when the group has no min/max for it,
// and then the group cannot be pruned on that column.
func (s RowGroupStats) Column(name string) (min, max any, nullCount int64, ok bool) {
	c, found := s.Columns[name]
	if !found {
		for k, v := range s.Columns {
			if strings.EqualFold(k, name) {
				c, found = v, true
				break
			}
		}
	}
	if !found {
		return nil, nil, 0, false
	}
	return c.Min, c.Max, c.NullCount, c.HasMinMax
}

// parquetReader reads the projected columns of the kept row groups.
type parquetReader struct {
	file   File
	opts   Options
	schema *arrow.Schema
	pf     *file.Reader
	rr     pqarrow.RecordReader

	// srcCol[i] is output column i's index in rr's batches, or -1.
	srcCol []int
	// own[i] reads output column i page by page (pageColumn), or is
	// nil: rr reads it, or nothing does.
	own                         []*pageColumn
	fileIdx, rowIdx, corruptIdx int

	// groups are the kept row groups as (first row in file, rows), so
	// _row can be the row's ordinal in the whole file.
	groups  []groupSpan
	pos     int64 // rows returned so far, over kept groups
	noLeaf  bool  // nothing to read from the file: only row counts matter
	rows    int64
	skipped int // row groups pruned
	done    bool
}

type groupSpan struct{ first, n int64 }

var _ StatsReader = (*parquetReader)(nil)

func newParquetReader(ctx context.Context, f File, sch *arrow.Schema, opts Options) (*parquetReader, error) {
	wrap := func(step string, err error) error { return fmt.Errorf("reading %s: %s: %w", f.Name, step, err) }
	ra, err := openRandom(ctx, f)
	if err != nil {
		return nil, wrap("opening", err)
	}
	pf, err := file.NewParquetReader(ra, file.WithReadProps(parquet.NewReaderProperties(memory.DefaultAllocator)))
	if err != nil {
		return nil, wrap("parquet footer", err)
	}
	r := &parquetReader{file: f, opts: opts, schema: sch, pf: pf, fileIdx: -1, rowIdx: -1, corruptIdx: -1}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(opts.BatchSize)}, memory.DefaultAllocator)
	if err != nil {
		pf.Close()
		return nil, wrap("parquet schema", err)
	}
	fileFields := fr.Manifest.Fields

	// Which top-level file fields the projection needs, and their leaves.
	var leaves []int
	var picked []int // file field index per picked source column
	r.srcCol = make([]int, sch.NumFields())
	for i, fl := range sch.Fields() {
		r.srcCol[i] = -1
		switch {
		case fl.Name == FileColumn && types.IsString(fl.Type):
			r.fileIdx = i
			continue
		case fl.Name == RowColumn && types.IsInteger(fl.Type):
			r.rowIdx = i
			continue
		case strings.EqualFold(fl.Name, opts.CorruptColumn) && types.IsString(fl.Type):
			r.corruptIdx = i
			continue
		}
		fi := matchField(fileFields, fl.Name)
		if fi < 0 {
			continue
		}
		r.srcCol[i] = len(picked)
		picked = append(picked, fi)
		leaves = collectLeaves(&fileFields[fi], leaves)
	}

	// Row-group pruning on the footer's statistics.
	md := pf.MetaData()
	var keep []int
	var first int64
	for g := 0; g < pf.NumRowGroups(); g++ {
		rg := md.RowGroup(g)
		n := rg.NumRows()
		if f.Part != nil && !inPart(rg, f.Part) {
			first += n
			continue
		}
		if opts.RowGroupFilter == nil || opts.RowGroupFilter(groupStats(md, fileFields, g)) {
			keep = append(keep, g)
			r.groups = append(r.groups, groupSpan{first: first, n: n})
		} else {
			r.skipped++
		}
		first += n
	}
	if len(keep) == 0 {
		r.done = true
		return r, nil
	}
	leaves = r.takePageColumns(sch, fileFields, picked, keep, leaves)
	if len(leaves) == 0 {
		r.noLeaf = r.own == nil
		return r, nil
	}
	rr, err := fr.GetRecordReader(ctx, leaves, keep)
	if err != nil {
		pf.Close()
		return nil, wrap("parquet columns", err)
	}
	// GetRecordReader orders fields by file position; map ours onto it.
	rs := rr.Schema()
	for i, s := range r.srcCol {
		if s < 0 || r.own != nil && r.own[i] != nil {
			continue
		}
		name := fileFields[picked[s]].Field.Name
		r.srcCol[i] = -1
		for j, fl := range rs.Fields() {
			if fl.Name == name {
				r.srcCol[i] = j
				break
			}
		}
	}
	r.rr = rr
	return r, nil
}

// takePageColumns picks the output columns pageColumn reads and
// returns the leaves left for pqarrow.
func (r *parquetReader) takePageColumns(sch *arrow.Schema, fileFields []pqarrow.SchemaField, picked, keep, leaves []int) []int {
	md := r.pf.MetaData()
	taken := map[int]bool{}
	for i, fl := range sch.Fields() {
		if r.srcCol[i] < 0 {
			continue
		}
		f := &fileFields[picked[r.srcCol[i]]]
		if !f.IsLeaf() || !arrow.TypeEqual(f.Field.Type, fl.Type) {
			continue
		}
		width := fixedWidth(md, f.ColIndex, keep, fl.Type)
		if width == 0 && !byteArrayEligible(md, f.ColIndex, keep, fl.Type) {
			continue
		}
		if r.own == nil {
			r.own = make([]*pageColumn, sch.NumFields())
		}
		r.own[i] = newPageColumn(r.pf, f.ColIndex, keep, fl.Type, width)
		taken[f.ColIndex] = true
	}
	if len(taken) == 0 {
		return leaves
	}
	rest := leaves[:0:0]
	for _, l := range leaves {
		if !taken[l] {
			rest = append(rest, l)
		}
	}
	return rest
}

// inPart reports whether a row group's first byte lies in the part.
func inPart(rg *metadata.RowGroupMetaData, p *Part) bool {
	at := rg.FileOffset()
	if cc, err := rg.ColumnChunk(0); err == nil {
		at = cc.DataPageOffset()
		if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < at {
			at = cc.DictionaryPageOffset()
		}
	}
	return at >= p.Start && at < p.End
}

// openRandom gives the ReadAt+Seek view the Parquet reader needs; without
// File.ReaderAt the file is read into memory.
func openRandom(ctx context.Context, f File) (parquet.ReaderAtSeeker, error) {
	if f.ReaderAt != nil && f.Size > 0 {
		ra, err := f.ReaderAt(ctx)
		if err != nil {
			return nil, err
		}
		return io.NewSectionReader(ra, 0, f.Size), nil
	}
	if f.Open == nil {
		return nil, errors.New("file has neither ReaderAt nor Open")
	}
	rc, err := f.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(data), nil
}

func matchField(fields []pqarrow.SchemaField, name string) int {
	for i := range fields {
		if fields[i].Field.Name == name {
			return i
		}
	}
	for i := range fields {
		if strings.EqualFold(fields[i].Field.Name, name) {
			return i
		}
	}
	return -1
}

func collectLeaves(f *pqarrow.SchemaField, out []int) []int {
	if f.IsLeaf() {
		return append(out, f.ColIndex)
	}
	for i := range f.Children {
		out = collectLeaves(&f.Children[i], out)
	}
	return out
}

// groupStats turns a row group's footer statistics into Go values for the
// top-level primitive columns.
func groupStats(md *metadata.FileMetaData, fields []pqarrow.SchemaField, g int) RowGroupStats {
	rg := md.RowGroup(g)
	st := RowGroupStats{Index: g, NumRows: rg.NumRows(), Columns: map[string]ColumnStats{}}
	for i := range fields {
		f := &fields[i]
		if !f.IsLeaf() {
			continue
		}
		cc, err := rg.ColumnChunk(f.ColIndex)
		if err != nil {
			continue
		}
		if set, err := cc.StatsSet(); err != nil || !set {
			continue
		}
		ts, err := cc.Statistics()
		if err != nil || ts == nil {
			continue
		}
		cs := ColumnStats{NullCount: ts.NullCount()}
		if ts.HasMinMax() {
			cs.Min, cs.Max, cs.HasMinMax = statValues(ts, md.Schema.Column(f.ColIndex).LogicalType())
		}
		st.Columns[f.Field.Name] = cs
	}
	return st
}

func statValues(ts metadata.TypedStatistics, lt schema.LogicalType) (min, max any, ok bool) {
	switch s := ts.(type) {
	case *metadata.BooleanStatistics:
		return s.Min(), s.Max(), true
	case *metadata.Int32Statistics:
		if il, isInt := lt.(schema.IntLogicalType); isInt && !il.IsSigned() {
			return int64(uint32(s.Min())), int64(uint32(s.Max())), true
		}
		if _, isDec := lt.(schema.DecimalLogicalType); isDec {
			return nil, nil, false
		}
		return int64(s.Min()), int64(s.Max()), true
	case *metadata.Int64Statistics:
		if tl, isTS := lt.(schema.TimestampLogicalType); isTS {
			switch tl.TimeUnit() {
			case schema.TimeUnitMillis:
				return s.Min() * 1000, s.Max() * 1000, true
			case schema.TimeUnitNanos:
				return floorDiv(s.Min(), 1000), floorDiv(s.Max(), 1000), true
			}
			return s.Min(), s.Max(), true
		}
		if il, isInt := lt.(schema.IntLogicalType); isInt && !il.IsSigned() {
			if s.Min() < 0 || s.Max() < 0 { // beyond int64: not comparable as int64
				return nil, nil, false
			}
		}
		if _, isDec := lt.(schema.DecimalLogicalType); isDec {
			return nil, nil, false
		}
		return s.Min(), s.Max(), true
	case *metadata.Float32Statistics:
		return float64(s.Min()), math.NaN(), true
	case *metadata.Float64Statistics:
		// Writers leave NaN out of min/max, and NaN is above every number
		// (Spark): the group may hold values above any max it records, so
		// only the min bounds it.
		return s.Min(), math.NaN(), true
	case *metadata.ByteArrayStatistics:
		if _, isStr := lt.(schema.StringLogicalType); isStr {
			return string(s.Min()), string(s.Max()), true
		}
	}
	return nil, nil, false
}

// Next returns the next batch of the projected columns, cast to the
// requested types, or io.EOF.
func (r *parquetReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return r.next(ctx, false)
}

// NextDict is Next, except that a STRING/BINARY column whose rows all
// come from one column chunk's dictionary pages is an Arrow dictionary
// array (int32 indices) over that chunk's dictionary, the same array for
// every batch of the chunk; the batch's schema says which columns are.
func (r *parquetReader) NextDict(ctx context.Context) (arrow.RecordBatch, error) {
	return r.next(ctx, true)
}

var _ DictReader = (*parquetReader)(nil)

func (r *parquetReader) next(ctx context.Context, dict bool) (arrow.RecordBatch, error) {
	if r.done {
		return nil, io.EOF
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var src arrow.RecordBatch
	var n int64
	if r.noLeaf || r.rr == nil {
		total := int64(0)
		for _, g := range r.groups {
			total += g.n
		}
		n = min(int64(r.opts.BatchSize), total-r.pos)
	} else {
		if !r.rr.Next() {
			if err := r.rr.Err(); err != nil && !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("reading %s: %w", r.file.Name, err)
			}
			r.done = true
			return nil, io.EOF
		}
		src = r.rr.RecordBatch()
		n = src.NumRows()
	}
	if n <= 0 {
		r.done = true
		return nil, io.EOF
	}
	cols := make([]arrow.Array, r.schema.NumFields())
	release := func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}
	var dictFields []arrow.Field
	for i, fl := range r.schema.Fields() {
		var col arrow.Array
		var err error
		switch {
		case r.own != nil && r.own[i] != nil && r.own[i].width > 0:
			col, err = r.own[i].readFixed(int(n))
			if err != nil {
				release()
				return nil, fmt.Errorf("reading %s: column %s: %w", r.file.Name, fl.Name, err)
			}
		case r.own != nil && r.own[i] != nil:
			run, rerr := r.own[i].read(int(n))
			if rerr == nil && int64(run.n) != n {
				rerr = errShortColumn
			}
			if rerr != nil {
				release()
				return nil, fmt.Errorf("reading %s: column %s: %w", r.file.Name, fl.Name, rerr)
			}
			var ok bool
			if dict {
				col, ok = run.dictArray(fl.Type)
			}
			if ok {
				if dictFields == nil {
					dictFields = r.schema.Fields()
				}
				dictFields[i].Type = col.DataType()
			} else {
				col = run.plainArray(fl.Type)
			}
		case i == r.fileIdx:
			col = constString(r.file.Name, n, fl.Type)
		case i == r.rowIdx:
			col = r.rowNumbers(n, fl.Type)
		case r.srcCol[i] >= 0:
			col, err = castTo(ctx, src.Column(r.srcCol[i]), fl.Type)
			if err != nil {
				release()
				return nil, fmt.Errorf("reading %s: column %s: %w", r.file.Name, fl.Name, err)
			}
		default:
			col = array.MakeArrayOfNull(memory.DefaultAllocator, fl.Type, int(n))
		}
		cols[i] = col
	}
	r.pos += n
	r.rows += n
	sch := r.schema
	if dictFields != nil {
		md := r.schema.Metadata()
		sch = arrow.NewSchema(dictFields, &md)
	}
	rec := array.NewRecordBatch(sch, cols, n)
	release()
	return rec, nil
}

// rowNumbers returns the 1-based file ordinals of the next n rows.
func (r *parquetReader) rowNumbers(n int64, t arrow.DataType) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, t)
	defer b.Release()
	b.Reserve(int(n))
	pos := r.pos
	for i := int64(0); i < n; i++ {
		p := pos + i
		var ord int64
		for _, g := range r.groups {
			if p < g.n {
				ord = g.first + p + 1
				break
			}
			p -= g.n
		}
		appendInt(b, ord)
	}
	return b.NewArray()
}

func constString(s string, n int64, t arrow.DataType) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, t)
	defer b.Release()
	if sb, ok := b.(*array.StringBuilder); ok {
		sb.ReserveData(len(s) * int(n))
		for i := int64(0); i < n; i++ {
			sb.Append(s)
		}
	} else {
		b.AppendNulls(int(n))
	}
	return b.NewArray()
}

// castTo converts a file column to the table's type (int32 to BIGINT,
// timestamp[ns] to TIMESTAMP, ...); same types are shared, not copied.
func castTo(ctx context.Context, a arrow.Array, t arrow.DataType) (arrow.Array, error) {
	if arrow.TypeEqual(a.DataType(), t) {
		a.Retain()
		return a, nil
	}
	// Safe, so a value that does not fit (an int64 in an INT column, a
	// decimal past its precision) is an error naming the file rather than
	// a wrapped number; only truncating timestamp[ns] to microseconds is
	// wanted.
	opts := compute.SafeCastOptions(t)
	opts.AllowTimeTruncate = true
	out, err := compute.CastArray(ctx, a, opts)
	if err != nil {
		return nil, fmt.Errorf("cannot convert %s to %s: %w", types.SQLName(a.DataType()), types.SQLName(t), err)
	}
	return out, nil
}

// Stats reports rows returned; Parquet has no bad rows.
func (r *parquetReader) Stats() ReadStats {
	return ReadStats{Rows: r.rows, RowGroups: len(r.groups) + r.skipped, RowGroupsSkipped: r.skipped}
}

func (r *parquetReader) Close() error {
	for _, c := range r.own {
		if c != nil {
			c.close()
		}
	}
	if r.rr != nil {
		r.rr.Release()
		r.rr = nil
	}
	if r.pf != nil {
		err := r.pf.Close()
		r.pf = nil
		return err
	}
	return nil
}
