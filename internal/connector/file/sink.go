package file

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/format"
	"sluice/internal/storage"
)

// Sink writes new files into a file table's location.
//
// File names are part-<prefix>-<seq>.<ext>[.gz], where prefix is the
// file_prefix option (if any), then SinkOptions.FilePrefix, then the epoch
// when the engine calls BeginEpoch; seq counts the files the sink opens,
// in the order their first row arrives. So the same prefix, epoch and
// input order give the same names, and a replayed epoch overwrites
// exactly the files its first attempt wrote, never anyone else's. A sink
// without a FilePrefix takes a random one.
//
// Each file is encoded into a local temporary file and stored with one
// atomic Put when it is finished: when it reaches max_rows_per_file rows
// (default 1,000,000) or at Flush. Readers never see half a file.
// Partitioned tables write each row into its col=value/ folder; the
// partition columns are not repeated inside the files.
type Sink struct {
	spec   connector.TableSpec
	format string
	loc    *location
	fopts  format.Options
	sopts  sourceOptions
	table  *arrow.Schema
	// data is the schema inside the files; dataIdx its table indexes.
	data    *arrow.Schema
	dataIdx []int
	partIdx []int
	ext     string
	codec   string
	// tempDir holds files being written before they are stored.
	tempDir string
	prefix  string
	mem     memory.Allocator

	epochTag string
	seq      int
	open     map[string]*openFile
	// openOrder lists open files' folders, oldest first.
	openOrder []string
	written   []string
	// storedKeys are the keys of the files stored, for AbortReplace.
	storedKeys []string
	// replacing is set by BeginReplace; old lists the files then there.
	replacing bool
	old       []string
}

var (
	_ connector.Sink          = (*Sink)(nil)
	_ connector.EpochBeginner = (*Sink)(nil)
	_ connector.Describer     = (*Sink)(nil)
)

// openFile is one file being written.
type openFile struct {
	key  string
	tmp  *storage.TempFile
	comp io.WriteCloser
	w    format.Writer
	rows int64
}

// NewSink opens a file table for INSERT. The table needs a declared (or
// already inferred) schema and a folder location, not a glob.
func NewSink(ctx context.Context, spec connector.TableSpec, opts connector.SinkOptions) (*Sink, error) {
	fmtName := strings.ToLower(spec.Using)
	if err := ValidateOptions(fmtName, spec.Options); err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	if spec.Schema == nil {
		return nil, fmt.Errorf("table %s: writing needs the table's columns", spec.Name)
	}
	loc, err := resolve(ctx, spec)
	if err != nil {
		return nil, err
	}
	if loc.glob != nil {
		return nil, fmt.Errorf("table %s: cannot write to a glob location %s", spec.Name, spec.Location)
	}
	fopts, err := format.ParseOptions(fmtName, formatOptions(fmtName, spec.Options))
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	sopts, err := parseSourceOptions(spec.Options)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	s := &Sink{spec: spec, format: fmtName, loc: loc, fopts: fopts, sopts: sopts, table: spec.Schema,
		mem: memory.DefaultAllocator, open: map[string]*openFile{}, tempDir: opts.TempDir}
	isPart := make([]bool, spec.Schema.NumFields())
	for _, p := range spec.PartitionBy {
		i := fieldIndex(spec.Schema, p)
		if i < 0 {
			return nil, fmt.Errorf("table %s: partition column %s is not in the schema", spec.Name, p)
		}
		isPart[i] = true
		s.partIdx = append(s.partIdx, i)
	}
	var fields []arrow.Field
	for i, f := range spec.Schema.Fields() {
		if !isPart[i] {
			fields = append(fields, f)
			s.dataIdx = append(s.dataIdx, i)
		}
	}
	s.data = arrow.NewSchema(fields, nil)

	s.ext = "." + fmtName
	if fmtName != "parquet" {
		// Parquet compresses its pages inside the file (the writer reads
		// the compression option itself); the line formats compress the
		// whole stream here and say so in the name.
		s.codec = strings.ToLower(fopts.Compression)
		if s.codec == "" || s.codec == format.CodecAuto {
			s.codec = format.CodecNone
		}
		s.fopts.Compression = format.CodecNone
		s.ext += format.Extension(s.codec)
	}
	var parts []string
	if sopts.FilePrefix != "" {
		parts = append(parts, sopts.FilePrefix)
	}
	if opts.FilePrefix != "" {
		parts = append(parts, safeName(opts.FilePrefix))
	} else {
		var r [6]byte
		_, _ = rand.Read(r[:])
		parts = append(parts, hex.EncodeToString(r[:]))
	}
	s.prefix = strings.Join(parts, "-")
	return s, nil
}

// maxOpenFiles bounds the files a sink writes at once (one per partition
// folder): each holds an encoder's buffers and a temporary file.
const maxOpenFiles = 64

// safeName keeps a prefix to characters every store accepts in a name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

// Schema is the table schema: data columns then partition columns.
func (s *Sink) Schema() *arrow.Schema { return s.table }

// BeginEpoch starts the file names of epoch over: the files of epoch N
// are part-<prefix>-<N>-<seq>.
func (s *Sink) BeginEpoch(ctx context.Context, epoch int64) error {
	s.abortAll()
	s.epochTag = fmt.Sprintf("-%d", epoch)
	s.seq = 0
	return nil
}

// Describe names the sink for EXPLAIN.
func (s *Sink) Describe() string {
	d := fmt.Sprintf("%s location=%s", s.format, s.loc.keyURI(s.loc.prefix))
	if len(s.partIdx) > 0 {
		var names []string
		for _, i := range s.partIdx {
			names = append(names, s.table.Field(i).Name)
		}
		d += " partition_by=[" + strings.Join(names, ", ") + "]"
	}
	return d
}

// Written lists the URIs of the files stored so far, in order.
func (s *Sink) Written() []string { return append([]string(nil), s.written...) }

// Write routes each row of batch to its partition's open file.
func (s *Sink) Write(ctx context.Context, batch arrow.RecordBatch) error {
	if int(batch.NumCols()) != s.table.NumFields() {
		return fmt.Errorf("writing %s: batch has %d columns, the table %d", s.spec.Name, batch.NumCols(), s.table.NumFields())
	}
	n := int(batch.NumRows())
	if n == 0 {
		return nil
	}
	if len(s.partIdx) == 0 {
		return s.writeRows(ctx, "", batch, nil)
	}
	// Group rows by folder, folders in first-seen order.
	var dirs []string
	rows := map[string][]int64{}
	var sb strings.Builder
	for i := range n {
		sb.Reset()
		for k, ti := range s.partIdx {
			if k > 0 {
				sb.WriteByte('/')
			}
			sb.WriteString(escapePathName(s.table.Field(ti).Name))
			sb.WriteByte('=')
			sb.WriteString(formatPartitionValue(batch.Column(ti), i))
		}
		d := sb.String()
		if _, ok := rows[d]; !ok {
			dirs = append(dirs, d)
		}
		rows[d] = append(rows[d], int64(i))
	}
	for _, d := range dirs {
		if err := s.writeRows(ctx, d+"/", batch, rows[d]); err != nil {
			return err
		}
	}
	return nil
}

// writeRows writes the given rows (nil: all) of batch's data columns into
// the folder dir, rolling files at max_rows_per_file.
func (s *Sink) writeRows(ctx context.Context, dir string, batch arrow.RecordBatch, idx []int64) error {
	cols := make([]arrow.Array, len(s.dataIdx))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	n := batch.NumRows()
	var take arrow.Array
	if idx != nil && int64(len(idx)) != n {
		b := array.NewInt64Builder(s.mem)
		b.AppendValues(idx, nil)
		take = b.NewArray()
		b.Release()
		defer take.Release()
		n = int64(len(idx))
	}
	for i, ti := range s.dataIdx {
		f := s.table.Field(ti)
		col, err := conform(ctx, batch.Column(ti), f.Type, f.Name)
		if err != nil {
			return fmt.Errorf("writing %s: %w", s.spec.Name, err)
		}
		if take != nil {
			picked, err := compute.TakeArray(ctx, col, take)
			col.Release()
			if err != nil {
				return fmt.Errorf("writing %s: %w", s.spec.Name, err)
			}
			col = picked
		}
		cols[i] = col
	}
	rec := array.NewRecordBatch(s.data, cols, n)
	defer rec.Release()
	for off := int64(0); off < n; {
		f, err := s.fileFor(ctx, dir)
		if err != nil {
			return err
		}
		m := min(n-off, s.sopts.MaxRowsPerFile-f.rows)
		part := rec
		if off != 0 || m != n {
			part = rec.NewSlice(off, off+m)
		}
		err = f.w.Write(part)
		if part != rec {
			part.Release()
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", s.loc.keyURI(f.key), err)
		}
		f.rows += m
		off += m
		if f.rows >= s.sopts.MaxRowsPerFile {
			if err := s.finish(ctx, dir); err != nil {
				return err
			}
		}
	}
	return nil
}

// fileFor returns the open file of dir, starting one if needed.
func (s *Sink) fileFor(ctx context.Context, dir string) (*openFile, error) {
	if f := s.open[dir]; f != nil {
		return f, nil
	}
	if len(s.open) >= maxOpenFiles {
		// Too many partitions at once: store the file opened first. Which
		// one depends only on the input order, so names stay deterministic.
		if err := s.finish(ctx, s.openOrder[0]); err != nil {
			return nil, err
		}
	}
	name := fmt.Sprintf("part-%s%s-%05d%s", s.prefix, s.epochTag, s.seq, s.ext)
	s.seq++
	key := s.loc.base + dir + name
	tmp, err := storage.CreateTemp(s.tempDir, connector.TempFilePrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", s.spec.Name, err)
	}
	f := &openFile{key: key, tmp: tmp, comp: nopCloser{tmp}}
	if s.format != "parquet" {
		if f.comp, err = format.Compress(tmp, s.codec); err != nil {
			f.discard()
			return nil, fmt.Errorf("writing %s: %w", s.spec.Name, err)
		}
	}
	if f.w, err = format.NewWriter(f.comp, s.data, s.fopts); err != nil {
		f.discard()
		return nil, fmt.Errorf("writing %s: %w", s.loc.keyURI(key), err)
	}
	s.open[dir] = f
	s.openOrder = append(s.openOrder, dir)
	return f, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

func (f *openFile) discard() {
	_ = f.tmp.Remove()
}

// finish completes dir's open file and stores it.
func (s *Sink) finish(ctx context.Context, dir string) error {
	f := s.open[dir]
	if f == nil {
		return nil
	}
	delete(s.open, dir)
	s.forget(dir)
	defer f.discard()
	uri := s.loc.keyURI(f.key)
	if err := f.w.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", uri, err)
	}
	if err := f.comp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", uri, err)
	}
	if _, err := f.tmp.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("writing %s: %w", uri, err)
	}
	if err := s.loc.store.Put(ctx, f.key, f.tmp, false); err != nil {
		return fmt.Errorf("storing %s: %w", uri, err)
	}
	s.written = append(s.written, uri)
	s.storedKeys = append(s.storedKeys, f.key)
	return nil
}

// Flush stores every open file. Files are named when opened, so the order
// they are stored in does not matter; it is sorted for stable errors.
func (s *Sink) Flush(ctx context.Context, epoch int64) error {
	dirs := make([]string, 0, len(s.open))
	for d := range s.open {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		if err := s.finish(ctx, d); err != nil {
			s.abortAll()
			return err
		}
	}
	return nil
}

// forget removes dir from openOrder.
func (s *Sink) forget(dir string) {
	for i, d := range s.openOrder {
		if d == dir {
			s.openOrder = append(s.openOrder[:i], s.openOrder[i+1:]...)
			return
		}
	}
}

// abortAll drops open files without storing them.
func (s *Sink) abortAll() {
	for d, f := range s.open {
		f.discard()
		delete(s.open, d)
	}
	s.openOrder = s.openOrder[:0]
}

// Close discards rows written since the last Flush: only Flush makes
// rows durable.
func (s *Sink) Close() error {
	s.abortAll()
	return nil
}
