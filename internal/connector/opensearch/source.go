package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/valyala/fastjson"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/format"
	"sluice/internal/types"
)

// Source reads an index (or every index a date pattern names) with a
// point in time and search_after, asking only for the projected columns
// and only for the documents the pushed-down query matches.
type Source struct {
	spec    connector.TableSpec
	o       Options
	schema  *arrow.Schema // projected
	query   dsl           // nil: match_all
	pushed  []string      // the predicates pushed, for EXPLAIN
	project bool          // a projection was pushed
	// exact: the pushed query keeps exactly the rows the pushed
	// predicates keep, and no predicate was left to the engine, so an
	// aggregation may be computed by the cluster.
	exact bool
	// withID, withIndex: the projection asks for the hidden _id or
	// _index column, read from each hit's metadata rather than its
	// _source.
	withID, withIndex bool
}

var (
	_ connector.Source           = (*Source)(nil)
	_ connector.ProjectionPusher = (*Source)(nil)
	_ connector.FilterPusher     = (*Source)(nil)
	_ connector.Describer        = (*Source)(nil)
)

// NewSource opens an opensearch table for reading.
func NewSource(_ context.Context, spec connector.TableSpec) (*Source, error) {
	o, err := ParseOptions(spec.Options)
	if err != nil {
		return nil, err
	}
	if spec.Schema == nil {
		return nil, fmt.Errorf("opensearch table %s has no schema", spec.Name)
	}
	o.fromMetadata(spec.Schema)
	return &Source{spec: spec, o: o, schema: spec.Schema, exact: true}, nil
}

const (
	idColumn    = connector.IDColumn
	indexColumn = connector.IndexColumn
)

var _ connector.MetadataColumnSource = (*Source)(nil)

// MetadataColumns offers the documents' _id and _index, each unless the
// table has a column of that name.
func (s *Source) MetadataColumns() []string {
	return connector.SearchMetadataColumns(func(c string) bool { return fieldIndex(s.spec.Schema, c) >= 0 })
}

// isMeta reports a hidden metadata column the projection asked for.
func (s *Source) isMeta(name string) bool {
	return s.withID && name == idColumn || s.withIndex && name == indexColumn
}

// Schema is the projected schema.
func (s *Source) Schema() *arrow.Schema { return s.schema }

// target is the index expression searched: pattern parts become *.
func (s *Source) target() string {
	return patternGlob.ReplaceAllString(s.o.Index, "*")
}

var patternGlob = regexp.MustCompile(`\{[^}]*\}`)

// Latest: an index is read whole; the offset only tells "read" from "not yet".
func (s *Source) Latest(context.Context) (connector.Offset, error) {
	return connector.Offset(`1`), nil
}

// Plan returns the one split that reads the index, or none when from is
// already at to.
func (s *Source) Plan(_ context.Context, from, to connector.Offset) ([]connector.Split, error) {
	if len(from) > 0 && bytes.Equal(from, to) {
		return nil, nil
	}
	return []connector.Split{split{id: s.target()}}, nil
}

type split struct{ id string }

func (p split) ID() string  { return p.id }
func (p split) Size() int64 { return 0 }

// PushProjection asks for only these columns (as _source includes).
func (s *Source) PushProjection(columns []string) (connector.Source, error) {
	fields := make([]arrow.Field, 0, len(columns))
	withID, withIndex := false, false
	for _, c := range columns {
		i := fieldIndex(s.spec.Schema, c)
		if i < 0 && strings.EqualFold(c, idColumn) {
			fields = append(fields, arrow.Field{Name: idColumn, Type: types.String, Nullable: false})
			withID = true
			continue
		}
		if i < 0 && strings.EqualFold(c, indexColumn) {
			fields = append(fields, arrow.Field{Name: indexColumn, Type: types.String, Nullable: false})
			withIndex = true
			continue
		}
		if i < 0 {
			return nil, fmt.Errorf("opensearch table %s has no column %s", s.spec.Name, c)
		}
		fields = append(fields, s.spec.Schema.Field(i))
	}
	n := *s
	n.schema = arrow.NewSchema(fields, nil)
	n.project = true
	n.withID, n.withIndex = withID, withIndex
	// A pushed query refers to columns by the table schema; keep it.
	return &n, nil
}

// PushFilter translates what it can of pred (a predicate over the current
// schema) into query DSL; the rest is left to the engine.
func (s *Source) PushFilter(pred expr.Expr) (connector.Source, error) {
	t := &translator{schema: s.schema, text: s.o.TextFields, keyword: s.o.Keyword, exactPhrase: s.o.IndexMappings == ""}
	var qs []any
	var pushed []string
	exact := s.exact
	for _, c := range expr.SplitConjuncts(pred) {
		q, ex, ok := t.translate(c)
		exact = exact && ok && ex
		if ok {
			qs = append(qs, q)
			pushed = append(pushed, c.String())
		}
	}
	n := *s
	n.exact = exact
	if len(qs) == 0 {
		return &n, nil
	}
	if n.query != nil {
		qs = append([]any{n.query}, qs...)
	}
	n.query = dsl{"bool": dsl{"filter": qs}}
	n.pushed = append(append([]string(nil), s.pushed...), pushed...)
	return &n, nil
}

// Describe shows the index, the columns and the query sent; never
// endpoints' credentials.
func (s *Source) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "opensearch index=%s", s.target())
	if s.project {
		names := make([]string, s.schema.NumFields())
		for i, f := range s.schema.Fields() {
			names[i] = f.Name
		}
		fmt.Fprintf(&b, " columns=[%s]", strings.Join(names, ", "))
	}
	if s.query != nil {
		q, _ := json.Marshal(s.query)
		fmt.Fprintf(&b, " query=%s", q)
	}
	return b.String()
}

// searchBody is one page's request.
func (s *Source) searchBody(pit string, after []byte) []byte {
	body := dsl{
		"size": s.o.PageSize,
		"pit":  dsl{"id": pit, "keep_alive": "2m"},
		// OpenSearch 2 has no _shard_doc: _doc repeats across shards, so
		// _id breaks the ties search_after would otherwise skip.
		"sort":             []any{"_doc", "_id"},
		"track_total_hits": false,
	}
	if s.query != nil {
		body["query"] = s.query
	}
	if s.schema.NumFields() == 0 {
		body["_source"] = false
	} else if s.project {
		inc := make([]string, 0, s.schema.NumFields())
		for _, f := range s.schema.Fields() {
			if !s.isMeta(f.Name) {
				inc = append(inc, f.Name)
			}
		}
		if len(inc) == 0 {
			body["_source"] = false
		} else {
			body["_source"] = dsl{"includes": inc}
		}
	}
	if after != nil {
		body["search_after"] = json.RawMessage(after)
	}
	b, _ := json.Marshal(body)
	return b
}

// Open starts a point in time over the index and pages through it.
func (s *Source) Open(ctx context.Context, _ connector.Split) (connector.RecordReader, error) {
	cl, err := newClient(ctx, s.o)
	if err != nil {
		return nil, err
	}
	var pit string
	err = withRetry(ctx, s.o, "opening a point in time on "+s.target(), func() (bool, error) {
		st, body, err := cl.do(ctx, http.MethodPost, "/"+url.PathEscape(s.target())+"/_search/point_in_time?keep_alive=2m&ignore_unavailable=true&allow_no_indices=true", nil)
		if err != nil {
			return true, err
		}
		if st == http.StatusNotFound {
			return false, nil // no index yet: no rows
		}
		if st == http.StatusBadRequest {
			// OpenSearch answers a point in time over an index that does
			// not exist (a dropped table's), despite ignore_unavailable,
			// with 400 "invalid id: [null]": no index is no rows.
			if hs, _, herr := cl.do(ctx, http.MethodHead, "/"+url.PathEscape(s.target()), nil); herr == nil && hs == http.StatusNotFound {
				return false, nil
			}
		}
		if st >= 300 {
			return retryable(st), statusErr("point in time", st, body)
		}
		pit = fastjson.GetString(body, "pit_id")
		return false, nil
	})
	if err != nil {
		cl.Close()
		return nil, err
	}
	return &reader{s: s, cl: cl, pit: pit, done: pit == ""}, nil
}

type reader struct {
	s     *Source
	cl    *client
	pit   string
	after []byte
	done  bool
	buf   bytes.Buffer
}

func (r *reader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for !r.done {
		var body []byte
		err := withRetry(ctx, r.s.o, "searching "+r.s.target(), func() (bool, error) {
			st, b, err := r.cl.do(ctx, http.MethodPost, "/_search", r.s.searchBody(r.pit, r.after))
			if err != nil {
				return true, err
			}
			if st >= 300 {
				return retryable(st), statusErr("search", st, b)
			}
			body = b
			return false, nil
		})
		if err != nil {
			return nil, err
		}
		v, err := fastjson.ParseBytes(body)
		if err != nil {
			return nil, fmt.Errorf("searching %s: reading the response: %w", r.s.target(), err)
		}
		if id := v.GetStringBytes("pit_id"); len(id) > 0 {
			r.pit = string(id)
		}
		hits := v.GetArray("hits", "hits")
		if len(hits) < r.s.o.PageSize {
			r.done = true
		}
		if len(hits) == 0 {
			break
		}
		r.after = hits[len(hits)-1].Get("sort").MarshalTo(nil)
		return r.decode(ctx, hits)
	}
	return nil, io.EOF
}

// decode turns a page of hits into a batch through the JSON-lines decoder,
// so documents read back exactly as files with the same rows would.
func (r *reader) decode(ctx context.Context, hits []*fastjson.Value) (arrow.RecordBatch, error) {
	if r.s.schema.NumFields() == 0 {
		return array.NewRecordBatch(r.s.schema, nil, int64(len(hits))), nil
	}
	r.buf.Reset()
	for _, h := range hits {
		src := h.Get("_source")
		doc := []byte("{}")
		if src != nil {
			doc = src.MarshalTo(nil)
		}
		var meta []connector.MetaField
		if r.s.withID {
			meta = append(meta, connector.MetaField{Name: idColumn, Value: h.Get(idColumn).MarshalTo(nil)})
		}
		if r.s.withIndex {
			meta = append(meta, connector.MetaField{Name: indexColumn, Value: h.Get(indexColumn).MarshalTo(nil)})
		}
		connector.JoinMetadata(&r.buf, doc, meta)
		r.buf.WriteByte('\n')
	}
	data := r.buf.Bytes()
	f := format.File{Name: "opensearch:" + r.s.target(), Size: int64(len(data)),
		Open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
	rd, err := format.NewReader(ctx, f, r.s.schema, format.Options{Format: "json", Compression: "none", BatchSize: len(hits) + 1})
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	var out []arrow.RecordBatch
	for {
		b, err := rd.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("decoding documents of %s: %w", r.s.target(), err)
		}
		out = append(out, b)
	}
	if len(out) == 1 {
		return out[0], nil
	}
	return concat(r.s.schema, out)
}

func (r *reader) Close() error {
	if r.pit != "" {
		body, _ := json.Marshal(dsl{"pit_id": []string{r.pit}})
		_, _, _ = r.cl.do(context.Background(), http.MethodDelete, "/_search/point_in_time", body)
		r.pit = ""
	}
	return r.cl.Close()
}
