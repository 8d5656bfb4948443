package opensearch_test

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/connector/conformance"
	"sluice/internal/connector/opensearch"
	"sluice/internal/expr"
	"sluice/internal/types"
)

// TestAggregatePushdown checks groups computed by the cluster against the
// same groups computed from the rows read without pushdown.
func TestAggregatePushdown(t *testing.T) {
	tg := newTarget(t, "agg-")
	spec := tg.Spec("t", map[string]string{"id": "id"})
	tg.Write(t, spec, 0, conformance.SearchBatch(0, 700))
	ctx := context.Background()
	full, err := opensearch.NewSource(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	rows := conformance.ReadAll(t, full)

	five := expr.MustLit(int32(400), types.Int)
	ge, _ := expr.Call(">=", expr.Col(3, "status", types.Int), five)
	match, _ := expr.Call("match", expr.Col(7, "msg", types.String), expr.MustLit("login", types.String))
	aggs := []connector.AggCall{{Func: "count"}, {Func: "count", Column: "latency"}, {Func: "sum", Column: "bytes"},
		{Func: "avg", Column: "latency"}, {Func: "min", Column: "status"}, {Func: "max", Column: "latency"}}
	tests := []struct {
		name   string
		filter expr.Expr
		groups []connector.GroupKey
		ok     bool
	}{
		{"by host", nil, []connector.GroupKey{{Column: "host"}}, true},
		{"by host and status, filtered", ge, []connector.GroupKey{{Column: "host"}, {Column: "status"}}, true},
		{"by hour", nil, []connector.GroupKey{{Column: "ts", Interval: time.Hour}}, true},
		{"no keys", ge, nil, true},
		{"inexact filter", match, []connector.GroupKey{{Column: "host"}}, false},
		{"text key", nil, []connector.GroupKey{{Column: "msg"}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var src connector.Source = full
			if tc.filter != nil {
				src, _ = full.PushFilter(tc.filter)
			}
			agg, ok, err := src.(connector.AggregatePusher).PushAggregate(tc.groups, aggs)
			if err != nil || ok != tc.ok {
				t.Fatalf("PushAggregate: ok %v err %v, want ok %v", ok, err, tc.ok)
			}
			if !ok {
				return
			}
			got := conformance.Rows(t, conformance.ReadAll(t, agg), nil)
			want := groupInGo(t, rows, tc.filter, tc.groups)
			// Sums of doubles differ in the last bits with the order of
			// addition: compare to 12 significant digits, as the slt suite does.
			got, want = round12(got), round12(want)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("pushed:\n%v\nengine-side:\n%v\n%s", got, want, agg.(connector.Describer).Describe())
			}
		})
	}
}

// groupInGo computes the test's aggregates from the rows the way SQL does.
func groupInGo(t *testing.T, rows []arrow.RecordBatch, filter expr.Expr, groups []connector.GroupKey) []string {
	type acc struct {
		n, nLat, sumBytes int64
		sumLat, maxLat    float64
		minStatus         int64
		keys              []string
	}
	m := map[string]*acc{}
	var order []string
	for _, b := range rows {
		var mask *array.Boolean
		if filter != nil {
			arr, err := filter.Eval(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			mask = arr.(*array.Boolean)
		}
		for i := 0; i < int(b.NumRows()); i++ {
			if mask != nil && (mask.IsNull(i) || !mask.Value(i)) {
				continue
			}
			var keys []string
			for _, g := range groups {
				c := b.Column(b.Schema().FieldIndices(g.Column)[0])
				switch {
				case c.IsNull(i):
					keys = append(keys, "NULL")
				case g.Interval > 0:
					us := int64(c.(*array.Timestamp).Value(i))
					w := g.Interval.Microseconds()
					keys = append(keys, types.FormatValue(mustTS(us-((us%w)+w)%w), 0))
				default:
					keys = append(keys, types.FormatValue(c, i))
				}
			}
			k := fmt.Sprint(keys)
			a := m[k]
			if a == nil {
				a = &acc{minStatus: math.MaxInt64, maxLat: math.Inf(-1), keys: keys}
				m[k] = a
				order = append(order, k)
			}
			a.n++
			a.sumBytes += b.Column(4).(*array.Int64).Value(i)
			if st := int64(b.Column(3).(*array.Int32).Value(i)); st < a.minStatus {
				a.minStatus = st
			}
			if lat := b.Column(5); !lat.IsNull(i) {
				v := lat.(*array.Float64).Value(i)
				a.nLat++
				a.sumLat += v
				a.maxLat = math.Max(a.maxLat, v)
			}
		}
	}
	var out []string
	for _, k := range order {
		a := m[k]
		avg, mx := "NULL", "NULL"
		if a.nLat > 0 {
			avg = types.FormatDouble(a.sumLat / float64(a.nLat))
			mx = types.FormatDouble(a.maxLat)
		}
		vals := append(append([]string(nil), a.keys...), fmt.Sprint(a.n), fmt.Sprint(a.nLat), fmt.Sprint(a.sumBytes), avg, fmt.Sprint(a.minStatus), mx)
		line := ""
		for i, v := range vals {
			if i > 0 {
				line += "|"
			}
			line += v
		}
		out = append(out, line)
	}
	sort.Strings(out)
	return out
}

// mustTS is a one-element TIMESTAMP array, for printing a bucket start.
func mustTS(us int64) *array.Timestamp {
	b := array.NewTimestampBuilder(memory.DefaultAllocator, types.Timestamp.(*arrow.TimestampType))
	b.Append(arrow.Timestamp(us))
	return b.NewTimestampArray()
}

func round12(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		parts := strings.Split(r, "|")
		for j, p := range parts {
			if strings.Contains(p, ".") {
				if f, err := strconv.ParseFloat(p, 64); err == nil {
					parts[j] = strconv.FormatFloat(f, 'g', 12, 64)
				}
			}
		}
		out[i] = strings.Join(parts, "|")
	}
	return out
}
