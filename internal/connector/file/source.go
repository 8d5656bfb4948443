package file

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/format"
	"sluice/internal/storage"
	"sluice/internal/types"
)

// Source reads a file table: every data file under its location, decoded
// by the table's format, with Hive partition folders as columns.
//
// A Source is immutable: PushProjection and PushFilter return new ones,
// so one table can serve several queries at once.
type Source struct {
	spec   connector.TableSpec
	format string
	loc    *location
	fopts  format.Options
	sopts  sourceOptions

	// table is the full table schema: data columns, then partition columns.
	table *arrow.Schema
	// partIdx are the table indexes of the partition columns, in
	// PartitionBy order; isPart marks them by table index.
	partIdx []int
	isPart  []bool

	// columns is the pushed projection (nil: every table column) and out
	// the schema it gives.
	columns []string
	out     *arrow.Schema

	// filter is the pushed predicate over the table schema; the rest are
	// the parts of it this source can use.
	filter    expr.Expr
	partPreds []expr.Expr
	statPreds []statPred
	// skipping is a skipping index's data over the table's files, nil
	// without one (skipping.go).
	skipping *connector.FileSkipping

	// stats and last are per pushed source: a push starts them over.
	stats *planStats
	last  *lastOffset
	dead  *deadLetter
	mem   memory.Allocator

	// limit, when >= 0, is the most rows a split yields (a pushed LIMIT).
	limit int64
	// readAsIs reads a file whole as it is at open, not checked against
	// its listed size: a stream replaying an epoch whose file was fixed
	// (FAILFAST, then rewritten) reads the fixed file. A read that changes
	// under it still fails.
	readAsIs bool
	// missingWarned is shared by every pushed copy: warn about a missing
	// location once.
	missingWarned *atomic.Bool
}

// planStats counts what Plan kept and pruned, for EXPLAIN and tests.
type planStats struct {
	files, pruned, skipped, opened, rowGroupsSkipped atomic.Int64
}

var (
	_ connector.Source           = (*Source)(nil)
	_ connector.ProjectionPusher = (*Source)(nil)
	_ connector.FilterPusher     = (*Source)(nil)
	_ connector.Describer        = (*Source)(nil)
	_ connector.Split            = (*Split)(nil)
	_ connector.RecordReader     = (*reader)(nil)
)

// NewSource opens a file table for reading. A spec without a schema is
// inferred from a sample of its files (see Infer).
func NewSource(ctx context.Context, spec connector.TableSpec) (*Source, error) {
	fmtName := strings.ToLower(spec.Using)
	if !isFormat(fmtName) {
		return nil, fmt.Errorf("table %s: %q is not a file format (json, csv, parquet)", spec.Name, spec.Using)
	}
	if err := ValidateOptions(fmtName, spec.Options); err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	if spec.Schema == nil {
		sch, parts, err := Infer(ctx, spec)
		if err != nil {
			return nil, err
		}
		spec.Schema, spec.PartitionBy = sch, parts
	}
	loc, err := resolve(ctx, spec)
	if err != nil {
		return nil, err
	}
	fopts, err := format.ParseOptions(fmtName, formatOptions(fmtName, spec.Options))
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	sopts, err := parseSourceOptions(spec.Options)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	isPartCol := map[string]bool{}
	for _, p := range spec.PartitionBy {
		isPartCol[strings.ToLower(p)] = true
	}
	for _, f := range spec.Schema.Fields() {
		if !isPartCol[strings.ToLower(f.Name)] {
			fopts.ColumnOrder = append(fopts.ColumnOrder, f.Name)
		}
	}
	s := &Source{
		spec: spec, format: fmtName, loc: loc, fopts: fopts, sopts: sopts,
		table: spec.Schema, out: spec.Schema, stats: &planStats{}, last: &lastOffset{}, mem: memory.DefaultAllocator, missingWarned: &atomic.Bool{},
		isPart: make([]bool, spec.Schema.NumFields()), limit: -1,
	}
	for _, p := range spec.PartitionBy {
		i := fieldIndex(spec.Schema, p)
		if i < 0 {
			return nil, fmt.Errorf("table %s: partition column %s is not in the schema", spec.Name, p)
		}
		s.partIdx = append(s.partIdx, i)
		s.isPart[i] = true
	}
	if sopts.DeadLetterLocation != "" {
		if s.dead, err = newDeadLetter(ctx, sopts.DeadLetterLocation, spec.Options); err != nil {
			return nil, fmt.Errorf("table %s: %w", spec.Name, err)
		}
	}
	return s, nil
}

// resolve opens the store a table's location names.
func resolve(ctx context.Context, spec connector.TableSpec) (*location, error) {
	if spec.Location == "" {
		return nil, fmt.Errorf("table %s: a %s table needs a LOCATION", spec.Name, spec.Using)
	}
	so, err := storage.OptionsFromMap(spec.Options)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	st, prefix, err := storage.Resolve(ctx, spec.Location, so)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	return newLocation(st, spec.Location, prefix)
}

// formatOptions picks the format's keys out of the table options.
func formatOptions(fmtName string, m map[string]string) map[string]string {
	keys := format.OptionKeys(fmtName)
	out := map[string]string{}
	for k, v := range m {
		for _, fk := range keys {
			if k == fk {
				out[k] = v
			}
		}
	}
	return out
}

// fieldIndex finds a column by name, exactly first, then ignoring case.
func fieldIndex(s *arrow.Schema, name string) int {
	if idx := s.FieldIndices(name); len(idx) > 0 {
		return idx[0]
	}
	for i, f := range s.Fields() {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// Schema is the table schema, or the pushed projection's columns.
func (s *Source) Schema() *arrow.Schema { return s.out }

// PushProjection returns a source whose batches hold exactly columns, in
// that order; _file and _row are allowed besides table columns.
func (s *Source) PushProjection(columns []string) (connector.Source, error) {
	fields := make([]arrow.Field, len(columns))
	for i, c := range columns {
		switch {
		case c == connector.FileColumn:
			fields[i] = arrow.Field{Name: c, Type: types.String}
		case c == connector.RowColumn:
			fields[i] = arrow.Field{Name: c, Type: types.BigInt}
		default:
			j := fieldIndex(s.table, c)
			if j < 0 {
				return nil, fmt.Errorf("table %s: no column %s", s.spec.Name, c)
			}
			fields[i] = s.table.Field(j)
		}
	}
	c := *s
	c.columns = append([]string(nil), columns...)
	c.out = arrow.NewSchema(fields, nil)
	c.stats, c.last = &planStats{}, &lastOffset{}
	return &c, nil
}

// PushFilter returns a source that skips partitions and Parquet row groups
// pred rules out. pred is over this source's Schema(); rows that fail it
// may still come back (the engine re-applies it).
func (s *Source) PushFilter(pred expr.Expr) (connector.Source, error) {
	if s.columns != nil {
		// The predicate indexes the projected schema: move it onto the
		// table's.
		if pred = onTable(pred, s.columns, s.table); pred == nil {
			return s, nil
		}
	}
	c := *s
	c.filter = andFilters(c.filter, pred)
	c.partPreds, c.statPreds = splitFilter(c.filter, s.table, s.isPart)
	c.stats, c.last = &planStats{}, &lastOffset{}
	return &c, nil
}

// Describe prints what EXPLAIN shows for the scan; never options.
func (s *Source) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s location=%s", s.format, s.loc.keyURI(s.loc.prefix))
	if n := s.stats.files.Load() + s.stats.pruned.Load() + s.stats.skipped.Load(); n > 0 {
		fmt.Fprintf(&b, " files=%d pruned=%d", s.stats.files.Load(), s.stats.pruned.Load())
		if s.skipping != nil {
			fmt.Fprintf(&b, " skipped=%d", s.stats.skipped.Load())
		}
	}
	if s.columns != nil {
		fmt.Fprintf(&b, " columns=[%s]", strings.Join(s.columns, ", "))
	}
	if s.filter != nil {
		fmt.Fprintf(&b, " filter=%s", s.filter.String())
	}
	if len(s.partPreds) > 0 {
		fmt.Fprintf(&b, " partition_filters=%d", len(s.partPreds))
	}
	if len(s.statPreds) > 0 && s.format == "parquet" {
		fmt.Fprintf(&b, " stats_filters=%d", len(s.statPreds))
	}
	if s.limit >= 0 {
		fmt.Fprintf(&b, " limit=%d", s.limit)
	}
	return b.String()
}

// RowGroupsSkipped is how many Parquet row groups the pushed filter let
// readers of this source skip, counted as readers close.
func (s *Source) RowGroupsSkipped() int64 { return s.stats.rowGroupsSkipped.Load() }

// OpenedFiles is how many files Open has been called for on this source
// (since its last push), for tests of pruning.
func (s *Source) OpenedFiles() int64 { return s.stats.opened.Load() }

// Latest lists the location now. Listing is narrowed to matching
// partition folders when a pushed filter allows it.
func (s *Source) Latest(ctx context.Context) (connector.Offset, error) {
	files, err := s.listFiles(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(fileOffset{Files: files})
	if err != nil {
		return nil, fmt.Errorf("table %s: encoding offset: %w", s.spec.Name, err)
	}
	s.last.remember(raw, files)
	return raw, nil
}

// lastOffset keeps the files behind the offset Latest returned last, so a
// batch query's Plan(nil, Latest()) does not decode what it just encoded.
type lastOffset struct {
	mu    sync.Mutex
	raw   []byte
	files []fileEntry
}

func (l *lastOffset) remember(raw []byte, files []fileEntry) {
	l.mu.Lock()
	l.raw, l.files = raw, files
	l.mu.Unlock()
}

// decode returns the files of o, from the cache when o is the last offset.
func (l *lastOffset) decode(o connector.Offset) (fileOffset, error) {
	l.mu.Lock()
	raw, files := l.raw, l.files
	l.mu.Unlock()
	if raw != nil && bytes.Equal(raw, o) {
		return fileOffset{Files: files}, nil
	}
	return decodeOffset(o)
}

// listFiles lists the location, narrowing by partition prefixes when the
// pushed filter pins the leading partition columns.
func (s *Source) listFiles(ctx context.Context) ([]fileEntry, error) {
	prefixes, err := s.partitionPrefixes(ctx)
	if err != nil {
		return nil, err
	}
	files, err := s.loc.list(ctx, &s.sopts, prefixes)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.spec.Name, err)
	}
	if len(files) == 0 {
		s.warnIfMissing(ctx)
	}
	return files, nil
}

// Plan returns the splits of every file in to that is not in from, in
// key order, less the files the pushed partition filter rules out: one
// per file, or for a large file one per part (split_size).
func (s *Source) Plan(ctx context.Context, from, to connector.Offset) ([]connector.Split, error) {
	return s.plan(ctx, from, to, true)
}

// plan is Plan; split false keeps every file whole (a stream's epochs
// are files: its offsets, seen-file log and replays count whole files).
func (s *Source) plan(ctx context.Context, from, to connector.Offset, split bool) ([]connector.Split, error) {
	toOff, err := s.last.decode(to)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.spec.Name, err)
	}
	fromOff, err := decodeOffset(from)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.spec.Name, err)
	}
	seen := make(map[string]string, len(fromOff.Files))
	for _, f := range fromOff.Files {
		seen[f.Key] = f.ETag
	}
	files := make([]fileEntry, 0, len(toOff.Files))
	for _, f := range toOff.Files {
		if etag, ok := seen[f.Key]; ok && (etag == f.ETag || !s.sopts.ReprocessChangedFiles) {
			continue
		}
		files = append(files, f)
	}
	kept, err := s.pruneFiles(ctx, files)
	if err != nil {
		return nil, fmt.Errorf("table %s: pruning partitions: %w", s.spec.Name, err)
	}
	pruned := len(files) - len(kept)
	indexed := s.skipIndexed(kept)
	s.stats.skipped.Store(int64(len(kept) - len(indexed)))
	kept = indexed
	s.stats.files.Store(int64(len(kept)))
	s.stats.pruned.Store(int64(pruned))
	splits := make([]connector.Split, 0, len(kept))
	ra := newReadAhead(s.loc.store, kept, s.sopts.ReadAhead, s.format)
	for i, f := range kept {
		sp := Split{URI: s.loc.keyURI(f.Key), Key: f.Key, Bytes: f.Size, ETag: f.ETag, ModTime: time.UnixMicro(f.MTime).UTC(), ra: ra, idx: i}
		parts := s.splitsOf(f, split)
		if parts == nil {
			splits = append(splits, &sp)
			continue
		}
		ra.skip(i)
		for _, p := range parts {
			part := sp
			part.ra, part.Part = nil, &format.Part{Start: p[0], End: p[1]}
			splits = append(splits, &part)
		}
	}
	return splits, nil
}

// Split is one file to read.
type Split struct {
	// URI names the file (store URI + key): what _file holds.
	URI     string
	Key     string
	Bytes   int64
	ETag    string
	ModTime time.Time
	// Part, when set, is the byte range of the file this split reads;
	// nil is the whole file.
	Part *format.Part
	// ra fetches the bodies of this Plan's small objects ahead of Open;
	// idx is this split's place in it.
	ra  *readAhead
	idx int
}

var _ connector.NamedSplit = (*Split)(nil)

// Name is the split's URI, a part's with its start offset (#N).
func (sp *Split) Name() string {
	if sp.Part != nil {
		return sp.URI + "#" + strconv.FormatInt(sp.Part.Start, 10)
	}
	return sp.URI
}

// ID is uri@etag: a rewritten file is a different split; a part adds
// its start offset.
func (sp *Split) ID() string {
	if sp.Part != nil {
		return sp.URI + "@" + sp.ETag + "#" + strconv.FormatInt(sp.Part.Start, 10)
	}
	return sp.URI + "@" + sp.ETag
}

// Size is the number of bytes the split covers: the file's, or its part's.
func (sp *Split) Size() int64 {
	if sp.Part != nil {
		return sp.Part.End - sp.Part.Start
	}
	return sp.Bytes
}

// partitionRow returns the typed partition values of key, aligned with
// partIdx. Every folder of the file's full URI counts, not only those
// below the location, so a table located at .../year=2026/ or at a glob
// below it still fills its declared year column; the deepest folder of a
// name wins. A partition column missing from the path is NULL.
func (s *Source) partitionRow(key string) ([]any, error) {
	vals := make([]any, len(s.partIdx))
	if len(s.partIdx) == 0 {
		return vals, nil
	}
	segs := parsePartitionPath(s.loc.keyURI(key))
	for pi, ti := range s.partIdx {
		f := s.table.Field(ti)
		for _, seg := range segs {
			if strings.EqualFold(seg.Name, f.Name) {
				v, err := partitionValue(seg, f.Type)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", s.loc.keyURI(key), err)
				}
				vals[pi] = v
			}
		}
	}
	return vals, nil
}

// Open starts decoding one split.
func (s *Source) Open(ctx context.Context, split connector.Split) (connector.RecordReader, error) {
	sp, ok := split.(*Split)
	if !ok {
		return nil, fmt.Errorf("table %s: split %s is not a file split", s.spec.Name, split.ID())
	}
	s.stats.opened.Add(1)
	parts, err := s.partitionRow(sp.Key)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.spec.Name, err)
	}
	// plan says where each output column comes from: the decoder's column
	// (>= 0) or a partition value (-1 - position in partIdx).
	out := s.out
	plan := make([]int, out.NumFields())
	var readFields []arrow.Field
	for i, f := range out.Fields() {
		if f.Name != connector.FileColumn && f.Name != connector.RowColumn {
			if ti := fieldIndex(s.table, f.Name); ti >= 0 && s.isPart[ti] {
				for pi, p := range s.partIdx {
					if p == ti {
						plan[i] = -1 - pi
					}
				}
				continue
			}
		}
		plan[i] = len(readFields)
		readFields = append(readFields, f)
	}
	if len(readFields) == 0 {
		// Only partition columns (or none: count(*)): ask for the row
		// number so batches still carry their row counts.
		readFields = append(readFields, arrow.Field{Name: connector.RowColumn, Type: types.BigInt})
	}
	fopts := s.fopts
	// _row read only for the row counts need not count the lines before
	// a part.
	fopts.RelativeRows = !s.wantsRow()
	if s.format == "parquet" && len(s.statPreds) > 0 {
		fopts.RowGroupFilter = rowGroupFilter(s.statPreds)
	}
	file := s.splitFile(ctx, sp)
	var bad *badRows
	if s.dead != nil {
		bad = &badRows{}
		fopts.OnBadRow = bad.add
	}
	fr, err := format.NewReader(ctx, file, arrow.NewSchema(readFields, nil), fopts)
	if err != nil {
		return nil, fmt.Errorf("table %s: opening %s: %w", s.spec.Name, sp.URI, err)
	}
	r := &reader{src: s, fr: fr, out: out, plan: plan, parts: parts, name: sp.URI, id: sp.ID(), bad: bad, ctx: ctx}
	if s.limit >= 0 {
		return connector.LimitReader(r, s.limit), nil
	}
	return r, nil
}

// reader adds partition columns to the decoder's batches and puts the
// columns in the projected order.
type reader struct {
	src   *Source
	fr    format.Reader
	out   *arrow.Schema
	plan  []int
	parts []any
	name  string
	id    string
	// bad collects rows for the dead-letter location (nil: none).
	bad *badRows
	// ctx is Open's, for storing bad rows at Close.
	ctx context.Context
}

func (r *reader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return r.next(ctx, false)
}

var _ connector.DictReader = (*reader)(nil)

// NextDict is Next with the decoder's dictionary columns passed through
// (format.DictReader); a decoder without them just gives Next's batches.
func (r *reader) NextDict(ctx context.Context) (arrow.RecordBatch, error) {
	return r.next(ctx, true)
}

func (r *reader) next(ctx context.Context, dict bool) (arrow.RecordBatch, error) {
	var b arrow.RecordBatch
	var err error
	if dr, ok := r.fr.(format.DictReader); ok && dict {
		b, err = dr.NextDict(ctx)
	} else {
		b, err = r.fr.Next(ctx)
	}
	if err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("reading %s: %w", r.name, err)
	}
	defer b.Release()
	n := int(b.NumRows())
	cols := make([]arrow.Array, len(r.plan))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	var dictFields []arrow.Field
	for i, p := range r.plan {
		if p >= 0 {
			f := r.out.Field(i)
			if dt, ok := b.Column(p).DataType().(*arrow.DictionaryType); ok && dict && arrow.TypeEqual(dt.ValueType, f.Type) {
				if dictFields == nil {
					dictFields = r.out.Fields()
				}
				dictFields[i].Type = dt
				cols[i] = b.Column(p)
				cols[i].Retain()
				continue
			}
			if cols[i], err = conform(ctx, b.Column(p), f.Type, f.Name); err != nil {
				return nil, fmt.Errorf("reading %s: %w", r.name, err)
			}
			continue
		}
		pi := -1 - p
		c, err := constArray(r.src.mem, r.out.Field(i).Type, r.parts[pi], n)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", r.name, err)
		}
		cols[i] = c
	}
	out := r.out
	if dictFields != nil {
		md := r.out.Metadata()
		out = arrow.NewSchema(dictFields, &md)
	}
	return array.NewRecordBatch(out, cols, int64(n)), nil
}

// Close closes the decoder and records the row groups it skipped.
func (r *reader) Close() error {
	if sr, ok := r.fr.(format.StatsReader); ok {
		r.src.stats.rowGroupsSkipped.Add(int64(sr.Stats().RowGroupsSkipped))
	}
	err := r.fr.Close()
	if r.bad != nil {
		if derr := r.src.dead.save(r.ctx, r.id, r.bad); err == nil && derr != nil {
			err = fmt.Errorf("table %s: %w", r.src.spec.Name, derr)
		}
	}
	return err
}
