package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/valyala/fastjson"

	"sluice/internal/connector"
	"sluice/internal/format"
	"sluice/internal/types"
)

var _ connector.AggregatePusher = (*Source)(nil)

// PushAggregate implements connector.AggregatePusher with a composite aggregation
// (paged with after_key, missing_bucket for NULL keys).
func (s *Source) PushAggregate(groups []connector.GroupKey, aggs []connector.AggCall) (connector.Source, bool, error) {
	if !s.exact {
		return nil, false, nil
	}
	var fields []arrow.Field
	var sources []any
	for i, g := range groups {
		f := fieldIndex(s.spec.Schema, g.Column)
		if f < 0 || s.o.TextFields[s.spec.Schema.Field(f).Name] {
			return nil, false, nil
		}
		ft := s.spec.Schema.Field(f).Type
		name := fmt.Sprintf("k%d", i)
		switch {
		case g.Interval > 0:
			if ft.ID() != arrow.TIMESTAMP || g.Interval%time.Millisecond != 0 {
				return nil, false, nil
			}
			sources = append(sources, dsl{name: dsl{"date_histogram": dsl{"field": g.Column,
				"fixed_interval": fmt.Sprintf("%dms", g.Interval.Milliseconds()), "missing_bucket": true}}})
			ft = types.Timestamp
		case ft.ID() == arrow.TIMESTAMP || !scalar(ft) || ft.ID() == arrow.BINARY:
			return nil, false, nil
		default:
			sources = append(sources, dsl{name: dsl{"terms": dsl{"field": g.Column, "missing_bucket": true}}})
		}
		fields = append(fields, arrow.Field{Name: name, Type: ft, Nullable: true})
	}
	sub := dsl{}
	for i, a := range aggs {
		name := fmt.Sprintf("a%d", i)
		var ft arrow.DataType
		if a.Func == "count" && a.Column == "" {
			fields = append(fields, arrow.Field{Name: name, Type: types.BigInt, Nullable: false})
			continue
		}
		f := fieldIndex(s.spec.Schema, a.Column)
		if f < 0 || s.o.TextFields[s.spec.Schema.Field(f).Name] {
			return nil, false, nil
		}
		ct := s.spec.Schema.Field(f).Type
		num := integer(ct) || ct.ID() == arrow.FLOAT64
		switch a.Func {
		case "count":
			if !scalar(ct) {
				return nil, false, nil
			}
			ft = types.BigInt
		case "sum":
			ft = types.Double
			if integer(ct) {
				ft = types.BigInt
			}
		case "avg":
			ft = types.Double
		case "min", "max":
			ft = ct
		default:
			return nil, false, nil
		}
		if a.Func != "count" && !num {
			return nil, false, nil
		}
		sub[name] = dsl{map[string]string{"count": "value_count", "sum": "sum", "avg": "avg", "min": "min", "max": "max"}[a.Func]: dsl{"field": a.Column}}
		sub[name+"_n"] = dsl{"value_count": dsl{"field": a.Column}}
		fields = append(fields, arrow.Field{Name: name, Type: ft, Nullable: true})
	}
	return &aggSource{s: s, schema: arrow.NewSchema(fields, nil), sources: sources, sub: sub, groups: groups, aggs: aggs}, true, nil
}

// aggSource yields the groups of a pushed aggregation.
type aggSource struct {
	s       *Source
	schema  *arrow.Schema
	sources []any
	sub     dsl
	groups  []connector.GroupKey
	aggs    []connector.AggCall
}

var (
	_ connector.Source    = (*aggSource)(nil)
	_ connector.Describer = (*aggSource)(nil)
)

func (a *aggSource) Schema() *arrow.Schema { return a.schema }
func (a *aggSource) Latest(ctx context.Context) (connector.Offset, error) {
	return a.s.Latest(ctx)
}
func (a *aggSource) Plan(ctx context.Context, from, to connector.Offset) ([]connector.Split, error) {
	return a.s.Plan(ctx, from, to)
}

func (a *aggSource) body(after []byte) []byte {
	comp := dsl{"size": 1000, "sources": a.sources}
	if after != nil {
		comp["after"] = json.RawMessage(after)
	}
	g := dsl{"composite": comp}
	if len(a.sub) > 0 {
		g["aggs"] = a.sub
	}
	body := dsl{"size": 0, "aggs": dsl{"g": g}, "track_total_hits": false}
	if a.s.query != nil {
		body["query"] = a.s.query
	}
	if len(a.sources) == 0 {
		// No keys: one global group, even over no documents.
		body["aggs"] = a.sub
		body["track_total_hits"] = true
	}
	b, _ := json.Marshal(body)
	return b
}

// Describe shows the aggregation sent.
func (a *aggSource) Describe() string {
	b := a.body(nil)
	return fmt.Sprintf("opensearch index=%s aggregation=%s", a.s.target(), b)
}

func (a *aggSource) Open(ctx context.Context, _ connector.Split) (connector.RecordReader, error) {
	cl, err := newClient(ctx, a.s.o)
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	var lines bytes.Buffer
	var after []byte
	for {
		var body []byte
		err := withRetry(ctx, a.s.o, "aggregating "+a.s.target(), func() (bool, error) {
			st, b, err := cl.do(ctx, http.MethodPost, "/"+url.PathEscape(a.s.target())+"/_search?ignore_unavailable=true&allow_no_indices=true", a.body(after))
			if err != nil {
				return true, err
			}
			if st >= 300 {
				return retryable(st), statusErr("aggregation", st, b)
			}
			body = b
			return false, nil
		})
		if err != nil {
			return nil, err
		}
		v, err := fastjson.ParseBytes(body)
		if err != nil {
			return nil, fmt.Errorf("aggregating %s: %w", a.s.target(), err)
		}
		if len(a.sources) == 0 {
			a.row(&lines, nil, v.Get("aggregations"), v.GetInt64("hits", "total", "value"))
			break
		}
		buckets := v.GetArray("aggregations", "g", "buckets")
		for _, bk := range buckets {
			a.row(&lines, bk.Get("key"), bk, bk.GetInt64("doc_count"))
		}
		ak := v.Get("aggregations", "g", "after_key")
		if len(buckets) == 0 || ak == nil {
			break
		}
		after = ak.MarshalTo(nil)
	}
	data := lines.Bytes()
	f := format.File{Name: "opensearch:" + a.s.target(), Size: int64(len(data)),
		Open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
	return format.NewReader(ctx, f, a.schema, format.Options{Format: "json", Compression: "none"})
}

// row writes one group as a JSON line named like the schema.
func (a *aggSource) row(w *bytes.Buffer, key, aggs *fastjson.Value, docs int64) {
	out := map[string]any{}
	for i, g := range a.groups {
		k := key.Get(fmt.Sprintf("k%d", i))
		if k == nil || k.Type() == fastjson.TypeNull {
			continue
		}
		if g.Interval > 0 {
			out[fmt.Sprintf("k%d", i)] = time.UnixMilli(k.GetInt64()).UTC().Format(time.RFC3339Nano)
			continue
		}
		if a.schema.Field(i).Type.ID() == arrow.DATE32 {
			// A date field's terms are epoch millis, which the JSON
			// decoder would read as days.
			out[fmt.Sprintf("k%d", i)] = time.UnixMilli(k.GetInt64()).UTC().Format(time.DateOnly)
			continue
		}
		out[fmt.Sprintf("k%d", i)] = json.RawMessage(k.MarshalTo(nil))
	}
	for i, c := range a.aggs {
		name := fmt.Sprintf("a%d", i)
		if c.Func == "count" && c.Column == "" {
			out[name] = docs
			continue
		}
		if aggs.GetInt64(name+"_n", "value") == 0 && c.Func != "count" {
			continue // NULL, as SQL says for no values
		}
		x := aggs.GetFloat64(name, "value")
		if a.schema.Field(len(a.groups)+i).Type.ID() == arrow.INT64 || c.Func == "count" || integer(a.schema.Field(len(a.groups)+i).Type) {
			out[name] = json.RawMessage(strconv.FormatInt(int64(math.Round(x)), 10))
			continue
		}
		out[name] = x
	}
	b, _ := json.Marshal(out)
	w.Write(b)
	w.WriteByte('\n')
}
