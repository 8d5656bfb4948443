package flint

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"sluice/internal/catalog"
	"sluice/internal/sql"
)

// fakeHost is a Host over an in-memory catalog with no streams run; a
// method a test does not expect panics (the embedded nil Host).
type fakeHost struct {
	Host
	cat  *catalog.Catalog
	runs map[string]StreamStatus
}

func (h *fakeHost) Catalog() *catalog.Catalog { return h.cat }
func (h *fakeHost) Database(_ context.Context, in string) (string, error) {
	if in == "" {
		return "default", nil
	}
	return catalog.ResolveDatabaseName(in, "default")
}

type fakeRun StreamStatus

func (r fakeRun) Status() StreamStatus { return StreamStatus(r) }

func (h *fakeHost) LastRun(name string) Run {
	if st, ok := h.runs[name]; ok {
		return fakeRun(st)
	}
	return nil
}

func (h *fakeHost) StreamStatus(_ context.Context, name string) (StreamStatus, bool) {
	st, ok := h.runs[name]
	return st, ok
}

func newFake(t *testing.T) *fakeHost {
	t.Helper()
	cat, err := catalog.Open("")
	if err != nil {
		t.Fatal(err)
	}
	return &fakeHost{cat: cat, runs: map[string]StreamStatus{}}
}

func execute(t *testing.T, f *Flint, text string) *Result {
	t.Helper()
	st, err := sql.ParseOne(text)
	if err != nil {
		t.Fatal(err)
	}
	r, ok, err := f.Execute(context.Background(), st)
	if !ok || err != nil {
		t.Fatalf("%s: ok %t, %v", text, ok, err)
	}
	return r
}

// TestExecuteOthers: a statement that is not Flint's is left to the
// engine, untouched.
func TestExecuteOthers(t *testing.T) {
	st, err := sql.ParseOne("SELECT 1")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := New(newFake(t)).Execute(context.Background(), st); ok || err != nil {
		t.Errorf("SELECT 1: ok %t, %v", ok, err)
	}
}

// TestShowAndDescribeViews: SHOW and DESCRIBE read a stored view (its
// JSON as data directories hold it) and the Host's runs, and SHOW lists
// a covering index's view under FLINT INDEXES, not MATERIALIZED VIEWS.
func TestShowAndDescribeViews(t *testing.T) {
	h := newFake(t)
	put := func(kind, name, options string) {
		t.Helper()
		if err := h.cat.PutObject(&catalog.Object{Kind: kind, Name: name, Options: json.RawMessage(options)}, false); err != nil {
			t.Fatal(err)
		}
	}
	put("mview", "default.v", `{"query":"SELECT a FROM t","auto_refresh":true,"refresh_interval":"5 minutes","checkpoint":"/cp/v","options":{"output_mode":"append"}}`)
	put("mview", "default.flint_spark_catalog_default_t_c_index", `{"query":"SELECT a FROM t","auto_refresh":false,"checkpoint":"/cp/c"}`)
	put("flint_index", "fi_flint_spark_catalog_default_t_c_index", `{"flint":"flint_spark_catalog_default_t_c_index","kind":"covering","table":"default.t","name":"c","index_table":"default.flint_spark_catalog_default_t_c_index","covered":["a"]}`)
	h.runs["mv_default.v"] = StreamStatus{State: "running", Epochs: 3}
	f := New(h)

	r := execute(t, f, "SHOW MATERIALIZED VIEWS")
	if want := [][]string{{"default.v", "true", "5 minutes", "running", "/cp/v"}}; !slices.EqualFunc(r.Rows, want, slices.Equal) {
		t.Errorf("SHOW MATERIALIZED VIEWS: %v, want %v", r.Rows, want)
	}
	r = execute(t, f, "SHOW FLINT INDEXES IN spark_catalog.default")
	want := [][]string{
		{"flint_spark_catalog_default_t_c_index", "covering", "default", "t", "c", "false", "active"},
		{"flint_spark_catalog_default_v", "mv", "default", "NULL", "v", "true", "refreshing"},
	}
	if !slices.EqualFunc(r.Rows, want, slices.Equal) {
		t.Errorf("SHOW FLINT INDEXES: %v, want %v", r.Rows, want)
	}
	r = execute(t, f, "DESCRIBE MATERIALIZED VIEW default.v")
	got := map[string]string{}
	for _, row := range r.Rows {
		got[row[0]] = row[1]
	}
	if got["query"] != "SELECT a FROM t" || got["output_mode"] != "append" || got["state"] != "running" || got["epochs"] != "3" {
		t.Errorf("DESCRIBE MATERIALIZED VIEW: %v", r.Rows)
	}
}
