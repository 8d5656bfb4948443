package index

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/format"
)

// pageSize is how many documents one search returns.
const pageSize = 1000

// Source reads the local index, pushing filters down as Bleve queries
// and paging in _id order with search_after.
type Source struct {
	spec    connector.TableSpec
	o       Options
	schema  *arrow.Schema
	query   query.Query
	pushed  []string
	project bool
	// meta: the hidden metadata columns the projection asks for, added
	// to each document (metadataColumns).
	meta []string
}

var (
	_ connector.Source           = (*Source)(nil)
	_ connector.ProjectionPusher = (*Source)(nil)
	_ connector.FilterPusher     = (*Source)(nil)
	_ connector.Describer        = (*Source)(nil)
)

// NewSource opens an index table for reading; a table never written
// reads as empty.
func NewSource(_ context.Context, spec connector.TableSpec) (*Source, error) {
	o, err := ParseOptions(spec)
	if err != nil {
		return nil, err
	}
	if spec.Schema == nil {
		return nil, fmt.Errorf("index table %s has no schema", spec.Name)
	}
	return &Source{spec: spec, o: o, schema: spec.Schema}, nil
}

// Schema is the projected schema.
func (s *Source) Schema() *arrow.Schema { return s.schema }

const (
	idColumn    = connector.IDColumn
	indexColumn = connector.IndexColumn
)

var _ connector.MetadataColumnSource = (*Source)(nil)

// MetadataColumns offers _id and _index, each unless the table has a
// column of that name.
func (s *Source) MetadataColumns() []string {
	return connector.SearchMetadataColumns(func(c string) bool { return len(s.spec.Schema.FieldIndices(c)) > 0 })
}

// Latest: the index is read whole.
func (s *Source) Latest(context.Context) (connector.Offset, error) { return connector.Offset(`1`), nil }

// Plan returns one split, or none when from is already at to.
func (s *Source) Plan(_ context.Context, from, to connector.Offset) ([]connector.Split, error) {
	if len(from) > 0 && bytes.Equal(from, to) {
		return nil, nil
	}
	return []connector.Split{split(s.o.Path)}, nil
}

type split string

func (p split) ID() string  { return string(p) }
func (p split) Size() int64 { return 0 }

// PushProjection keeps only these columns.
func (s *Source) PushProjection(columns []string) (connector.Source, error) {
	fields := make([]arrow.Field, 0, len(columns))
	var meta []string
	for _, c := range columns {
		idx := s.spec.Schema.FieldIndices(c)
		if len(idx) == 0 && (c == idColumn || c == indexColumn) {
			fields = append(fields, arrow.Field{Name: c, Type: arrow.BinaryTypes.String})
			meta = append(meta, c)
			continue
		}
		if len(idx) == 0 {
			return nil, fmt.Errorf("index table %s has no column %s", s.spec.Name, c)
		}
		fields = append(fields, s.spec.Schema.Field(idx[0]))
	}
	n := *s
	n.schema, n.project, n.meta = arrow.NewSchema(fields, nil), true, meta
	return &n, nil
}

// PushFilter pushes what it can of pred as a Bleve query.
func (s *Source) PushFilter(pred expr.Expr) (connector.Source, error) {
	t := &translator{schema: s.schema, text: s.o.TextFields}
	var qs []query.Query
	var pushed []string
	for _, c := range expr.SplitConjuncts(pred) {
		if s.readsMeta(c) {
			continue // not fields of the documents: the engine filters on them
		}
		if q, _, ok := t.translate(c); ok {
			qs = append(qs, q)
			pushed = append(pushed, c.String())
		}
	}
	if len(qs) == 0 {
		return s, nil
	}
	n := *s
	if n.query != nil {
		qs = append([]query.Query{n.query}, qs...)
	}
	n.query = bleve.NewConjunctionQuery(qs...)
	n.pushed = append(append([]string(nil), s.pushed...), pushed...)
	return &n, nil
}

// readsMeta reports a predicate over a hidden metadata column.
func (s *Source) readsMeta(e expr.Expr) bool {
	for _, i := range expr.Columns(e) {
		if i < s.schema.NumFields() && slices.Contains(s.meta, s.schema.Field(i).Name) {
			return true
		}
	}
	return false
}

// Describe is for EXPLAIN.
func (s *Source) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "local index path=%s", s.o.Path)
	if s.project {
		names := make([]string, s.schema.NumFields())
		for i, f := range s.schema.Fields() {
			names[i] = f.Name
		}
		fmt.Fprintf(&b, " columns=[%s]", strings.Join(names, ", "))
	}
	if len(s.pushed) > 0 {
		fmt.Fprintf(&b, " query=[%s]", strings.Join(s.pushed, " AND "))
	}
	return b.String()
}

// Open pages through the matching documents.
func (s *Source) Open(ctx context.Context, _ connector.Split) (connector.RecordReader, error) {
	sh, err := acquire(ctx, s.o.Path, s.spec.Schema, s.o.TextFields, false)
	if err != nil {
		return nil, err
	}
	return &reader{s: s, sh: sh, done: sh == nil}, nil
}

type reader struct {
	s     *Source
	sh    *shared
	after string
	done  bool
	buf   bytes.Buffer
}

func (r *reader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.done {
		return nil, io.EOF
	}
	var q query.Query = bleve.NewMatchAllQuery()
	if r.s.query != nil {
		q = r.s.query
	}
	req := bleve.NewSearchRequestOptions(q, pageSize, 0, false)
	req.SortBy([]string{"_id"})
	if r.after != "" {
		req.SearchAfter = []string{r.after}
	}
	if r.s.schema.NumFields() > 0 {
		req.Fields = []string{SourceField}
	}
	res, err := r.sh.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("searching %s: %w", r.s.o.Path, err)
	}
	hits := res.Hits
	if len(hits) < pageSize {
		r.done = true
	}
	if len(hits) == 0 {
		return nil, io.EOF
	}
	r.after = hits[len(hits)-1].ID
	if r.s.schema.NumFields() == 0 {
		return array.NewRecordBatch(r.s.schema, nil, int64(len(hits))), nil
	}
	r.buf.Reset()
	meta := make([]connector.MetaField, len(r.s.meta))
	for i, c := range r.s.meta {
		meta[i].Name = c
		if c == indexColumn {
			meta[i].Value, _ = json.Marshal(r.s.spec.Name)
		}
	}
	for _, h := range hits {
		src, _ := h.Fields[SourceField].(string)
		if src == "" {
			src = "{}"
		}
		for i := range meta {
			if meta[i].Name == idColumn {
				meta[i].Value, _ = json.Marshal(h.ID)
			}
		}
		connector.JoinMetadata(&r.buf, []byte(src), meta)
		r.buf.WriteByte('\n')
	}
	data := append([]byte(nil), r.buf.Bytes()...)
	f := format.File{Name: "index:" + r.s.o.Path, Size: int64(len(data)),
		Open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
	rd, err := format.NewReader(ctx, f, r.s.schema, format.Options{Format: "json", Compression: "none", BatchSize: len(hits) + 1})
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	b, err := rd.Next(ctx)
	if err != nil {
		return nil, fmt.Errorf("decoding documents of %s: %w", r.s.o.Path, err)
	}
	return b, nil
}

func (r *reader) Close() error {
	if r.sh == nil {
		return nil
	}
	r.sh = nil
	return release(r.s.o.Path)
}
