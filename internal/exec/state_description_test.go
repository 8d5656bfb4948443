package exec

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// aggQuery is a windowed streaming aggregation as the planner compiles
// it: the input's columns, then TUMBLE(ts, window) and keys as GROUP BY,
// then aggregates (count, or sum/count DISTINCT of a column).
type aggQuery struct {
	columns []string // input columns in order; "ts" is the TIMESTAMP
	window  string
	keys    []string
	aggs    []string // "count", "sum:status", "count_distinct:host"
	mode    OutputMode
}

var colTypes = map[string]arrow.DataType{"ts": types.Timestamp, "status": types.Int, "host": types.String, "ip": types.String, "bytes": types.BigInt}

func (q aggQuery) col(t *testing.T, name string) expr.Expr {
	t.Helper()
	for i, c := range q.columns {
		if c == name {
			return expr.Col(i, name, colTypes[name])
		}
	}
	t.Fatalf("no column %s in %v", name, q.columns)
	return nil
}

func (q aggQuery) build(t *testing.T) *WindowAggregate {
	t.Helper()
	size, _ := expr.Lit(q.window, types.String)
	win, err := expr.Call("tumble", q.col(t, "ts"), size)
	if err != nil {
		t.Fatal(err)
	}
	keys := []expr.Expr{win}
	names := []string{"w"}
	for _, k := range q.keys {
		keys = append(keys, q.col(t, k))
		names = append(names, k)
	}
	var aggs []*expr.Aggregate
	for _, a := range q.aggs {
		fn, arg, _ := strings.Cut(a, ":")
		var args []expr.Expr
		if arg != "" {
			args = []expr.Expr{q.col(t, arg)}
		}
		distinct := strings.HasSuffix(fn, "_distinct")
		ag, err := expr.NewAggregate(strings.TrimSuffix(fn, "_distinct"), args, distinct)
		if err != nil {
			t.Fatal(err)
		}
		aggs = append(aggs, ag)
		names = append(names, a)
	}
	w, err := NewWindowAggregate(keys, names, aggs, 0, q.mode)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWindowAggregateFingerprint(t *testing.T) {
	base := aggQuery{columns: []string{"status", "ts"}, window: "5 minutes", keys: []string{"status"}, aggs: []string{"count"}}
	fp := func(q aggQuery) string { return q.build(t).StateDescription().Fingerprint() }
	if fp(base) != fp(base) {
		t.Fatal("the same query twice gave different fingerprints")
	}
	same := map[string]aggQuery{
		// A filter in front on another column makes the scan read it, so
		// every column the aggregate reads moves.
		"extra column in front": {columns: []string{"host", "bytes", "status", "ts"}, window: "5 minutes", keys: []string{"status"}, aggs: []string{"count"}},
		"columns reordered":     {columns: []string{"ts", "status"}, window: "5 minutes", keys: []string{"status"}, aggs: []string{"count"}},
	}
	for name, q := range same {
		if fp(q) != fp(base) {
			t.Errorf("%s changed the fingerprint:\n%v\n%v", name, base.build(t).StateDescription(), q.build(t).StateDescription())
		}
	}
	cols := []string{"status", "host", "bytes", "ts"}
	differ := map[string]aggQuery{
		"more keys":      {columns: cols, window: "5 minutes", keys: []string{"status", "host"}, aggs: []string{"count"}},
		"other key":      {columns: cols, window: "5 minutes", keys: []string{"host"}, aggs: []string{"count"}},
		"no key":         {columns: cols, window: "5 minutes", aggs: []string{"count"}},
		"window size":    {columns: cols, window: "10 minutes", keys: []string{"status"}, aggs: []string{"count"}},
		"other agg":      {columns: cols, window: "5 minutes", keys: []string{"status"}, aggs: []string{"sum:bytes"}},
		"extra agg":      {columns: cols, window: "5 minutes", keys: []string{"status"}, aggs: []string{"count", "sum:bytes"}},
		"count a column": {columns: cols, window: "5 minutes", keys: []string{"status"}, aggs: []string{"count:host"}},
		"distinct agg":   {columns: cols, window: "5 minutes", keys: []string{"status"}, aggs: []string{"count_distinct:host"}},
		"update output":  {columns: cols, window: "5 minutes", keys: []string{"status"}, aggs: []string{"count"}, mode: Update},
	}
	seen := map[string]string{fp(base): "base"}
	for name, q := range differ {
		f := fp(q)
		if other, dup := seen[f]; dup {
			t.Errorf("%s has the fingerprint of %s", name, other)
		}
		seen[f] = name
	}
	diff := differ["more keys"].build(t).StateDescription().Diff(base.build(t).StateDescription())
	if diff != "group keys were [status INT] and are now [status INT, host STRING]" {
		t.Errorf("diff of more keys: %q", diff)
	}
	diff = differ["window size"].build(t).StateDescription().Diff(base.build(t).StateDescription())
	if diff != "window was tumble(ts, '5 minutes') and is now tumble(ts, '10 minutes')" {
		t.Errorf("diff of window size: %q", diff)
	}
	if d := base.build(t).StateDescription().Diff(base.build(t).StateDescription()); d != "" {
		t.Errorf("diff of the same query: %q", d)
	}
}

func TestStreamAndSessionFingerprints(t *testing.T) {
	status := expr.Col(0, "status", types.Int)
	cnt, _ := expr.NewAggregate("count", nil, false)
	stream := func(keys []expr.Expr, mode OutputMode) string {
		h, err := NewHashAggregate(keys, make([]string, len(keys)+1), []*expr.Aggregate{cnt})
		if err != nil {
			t.Fatal(err)
		}
		return NewStreamAggregate(h, mode).StateDescription().Fingerprint()
	}
	moved := expr.Col(3, "status", types.Int)
	if stream([]expr.Expr{status}, Complete) != stream([]expr.Expr{moved}, Complete) {
		t.Error("a stream aggregate's fingerprint depends on column indices")
	}
	if stream([]expr.Expr{status}, Complete) == stream([]expr.Expr{status}, Update) {
		t.Error("the output mode is not in a stream aggregate's fingerprint")
	}
	if stream([]expr.Expr{status}, Complete) == stream(nil, Complete) {
		t.Error("the keys are not in a stream aggregate's fingerprint")
	}
	ts := expr.Col(0, "ts", types.Timestamp)
	session := func(gap int64) string {
		s, err := NewSessionWindow(tsSchema, nil, ts, gap, "__session")
		if err != nil {
			t.Fatal(err)
		}
		return s.StateDescription().Fingerprint()
	}
	if session(60_000_000) != session(60_000_000) || session(60_000_000) == session(120_000_000) {
		t.Error("a session window's fingerprint does not follow its gap")
	}
}

// hopStage is a stream plan for HOP(ts, size, 5 minutes), ip: a filter
// and the window-exploding Generate in the scan workers, the window
// aggregate in the chain.
func hopStage(t *testing.T, size int64, filter bool) *Stage {
	t.Helper()
	in := arrow.NewSchema([]arrow.Field{{Name: "ip", Type: types.String}, {Name: "ts", Type: types.Timestamp}}, nil)
	ip, ts := expr.Col(0, "ip", types.String), expr.Col(1, "ts", types.Timestamp)
	hop, err := expr.HopWindows(ts, size, 300_000_000)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := NewGenerate([]expr.Expr{ip, ts, hop}, []string{"ip", "ts", "__hop"}, 2, false, false)
	if err != nil {
		t.Fatal(err)
	}
	cnt, _ := expr.NewAggregate("count", nil, false)
	wa, err := NewWindowAggregate([]expr.Expr{expr.Col(2, "__hop", expr.WindowType), ip}, []string{"w", "ip", "n"}, []*expr.Aggregate{cnt}, 0, Append)
	if err != nil {
		t.Fatal(err)
	}
	local := []Operator{gen}
	if filter {
		lit, _ := expr.Lit("x", types.String)
		pred, err := expr.Call("=", ip, lit)
		if err != nil {
			t.Fatal(err)
		}
		f, err := NewFilter(in, pred)
		if err != nil {
			t.Fatal(err)
		}
		local = append([]Operator{f}, local...)
	}
	return &Stage{Scan: &Scan{Local: func() ([]Operator, error) { return local, nil }}, Ops: []Operator{wa, NewLimit(wa.Schema(), 10, 0)}}
}

func TestStatefulOpsIDsAndHopWindows(t *testing.T) {
	ops := func(size int64, filter bool) []StatefulOp {
		t.Helper()
		got, err := StatefulOps(hopStage(t, size, filter))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	a := ops(600_000_000, false)
	if len(a) != 2 || a[0].ID != "window_aggregate-0" || a[1].ID != "limit-0" {
		t.Fatalf("ids: %+v", a)
	}
	if b := ops(600_000_000, true); b[0].Description.Fingerprint() != a[0].Description.Fingerprint() {
		t.Errorf("a filter in front changed the fingerprint:\n%v\n%v", a[0].Description, b[0].Description)
	}
	c := ops(1_200_000_000, false)
	if c[0].Description.Fingerprint() == a[0].Description.Fingerprint() {
		t.Fatal("the HOP size is not in the window aggregate's fingerprint")
	}
	if d := c[0].Description.Diff(a[0].Description); !strings.Contains(d, "hop windows were hop_windows(ts, 600000000us, 300000000us) and are now hop_windows(ts, 1200000000us, 300000000us)") {
		t.Errorf("diff: %q", d)
	}
	if c[1].Description.Fingerprint() != a[1].Description.Fingerprint() {
		t.Error("the HOP size leaked into the limit after the aggregate")
	}
}
