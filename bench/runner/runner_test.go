package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/bench/gen"
	"sluice/internal/sql"
)

func TestCreateTableSQLParses(t *testing.T) {
	for _, l := range gen.Layouts {
		ddl, err := CreateTableSQL(l, "/data/it's")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sql.Parse(ddl); err != nil {
			t.Errorf("%s: %v", ddl, err)
		}
		if !strings.Contains(ddl, `'/data/it\'s/`+l+"/'") {
			t.Errorf("%s: location not quoted", ddl)
		}
	}
	if _, err := CreateTableSQL("xml", "/data"); err == nil {
		t.Error("xml layout accepted")
	}
	for _, q := range append(Queries, Baseline) {
		if _, err := sql.Parse(q.Text("logs_ndjson")); err != nil {
			t.Errorf("%s: %v", q.ID, err)
		}
	}
}

func TestSelectQueries(t *testing.T) {
	for _, c := range []struct {
		ids  []string
		want string
		err  bool
	}{
		{nil, "Q1Q2Q3Q4", false},
		{[]string{"q3", "Q1"}, "Q3Q1", false},
		{[]string{"Q0"}, "Q0", false},
		{[]string{"Q5"}, "Q5", false},
		{[]string{"w1"}, "W1", false},
		{[]string{"Q9"}, "", true},
	} {
		qs, err := selectQueries(c.ids)
		var got string
		for _, q := range qs {
			got += q.ID
		}
		if (err != nil) != c.err || got != c.want {
			t.Errorf("selectQueries(%v) = %s, %v", c.ids, got, err)
		}
	}
}

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	if _, err := gen.Generate(context.Background(), gen.Options{Dir: dir, Rows: 100, Files: 2, Layouts: []string{"ndjson", "parquet"}}); err != nil {
		t.Fatal(err)
	}
	sets, err := discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 2 || sets[0].layout != "ndjson" || sets[1].layout != "parquet" || sets[0].rows != 100 || sets[1].files != 2 {
		t.Fatalf("discover = %+v %+v", sets[0], sets[1])
	}
	if _, err := discover(dir, []string{"csv"}); err == nil {
		t.Error("missing csv layout not reported")
	}
	// Without a manifest sizes come from the listing and rows are unknown.
	if err := os.Remove(filepath.Join(dir, gen.ManifestName)); err != nil {
		t.Fatal(err)
	}
	again, err := discover(dir, []string{"all"})
	if err != nil {
		t.Fatal(err)
	}
	if again[0].bytes != sets[0].bytes || again[0].rows != 0 || again[1].files != 2 {
		t.Errorf("listing gave %+v, manifest %+v", again[0], sets[0])
	}
	if _, err := discover(t.TempDir(), nil); err == nil {
		t.Error("empty directory accepted")
	}
}

func TestReport(t *testing.T) {
	rep := &Report{GoVersion: "go1.26", GOMAXPROCS: 2, NumCPU: 2, CPU: "test", Rows: 1000, Repeat: 1,
		Results: []Result{
			{Layout: "ndjson", Query: "Q1", Name: "scan-filter-count", Best: 0.5, Cores: 2, ResultRows: 1, Answer: "15"},
			{Layout: "csv", Query: "Q1", Name: "scan-filter-count", Best: 0.5, Cores: 2, ResultRows: 1, Answer: "16"},
			{Layout: "csv", Query: "Q2", Name: "group-by-status", Error: "boom\nmore"},
		}}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FAILED", "csv Q2 failed: boom ...", `WARNING: Q1: ndjson gives 1 rows "15", csv gives 1 rows "16"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
