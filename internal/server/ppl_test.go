package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"sluice/internal/cli"
	"sluice/internal/ppl"
)

// TestPPLEndpoint: POST /_plugins/_ppl answers a PPL query in the jdbc
// format by default (other formats as /_plugins/_sql), with the rows of
// the equivalent SQL; errors carry the query's line:column.
func TestPPLEndpoint(t *testing.T) {
	f := newFixture(t, 5)
	var r jdbcReply
	out := f.post("/_plugins/_ppl", map[string]any{"query": "source=t | where id >= 2 | eval twice = id * 2 | sort - id | fields id, twice | head 2"}, 200)
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Schema) != 2 || r.Schema[0].Name != "id" || r.Schema[1].Name != "twice" || r.Total != 2 {
		t.Fatalf("reply: %s", out)
	}
	if got, _ := json.Marshal(r.Datarows); string(got) != "[[4,8],[3,6]]" {
		t.Errorf("rows %s", got)
	}
	want := f.sql(200, "SELECT count(*) AS n, name FROM t WHERE id < 3 GROUP BY name ORDER BY name")
	got := f.pplReply(200, "source=t | where id < 3 | stats count() as n by name | sort name")
	g, _ := json.Marshal(got.Datarows)
	w, _ := json.Marshal(want.Datarows)
	if string(g) != string(w) || len(got.Datarows) != 3 {
		t.Errorf("PPL rows %s, SQL rows %s", g, w)
	}
	csv := string(f.post("/_plugins/_ppl?format=csv", map[string]any{"query": "source=t | fields id | head 2"}, 200))
	if csv != "id\n0\n1" {
		t.Errorf("csv %q", csv)
	}
	bad := f.pplReply(400, "source=t\n| where nope > 1")
	// An unknown field is the plugin's FIELD_NOT_FOUND report
	// (TestPPLErrorReport decodes it whole).
	if bad.Error == nil || !strings.Contains(bad.Error.Details, "at line 2:9") || bad.Error.Type != "IllegalArgumentException" {
		t.Errorf("error %+v", bad.Error)
	}
	syn := f.pplReply(400, "source=t | stats")
	if syn.Error == nil || syn.Error.Type != "SyntaxCheckException" || !strings.Contains(syn.Error.Details, "PPL syntax error at line 1:17") {
		t.Errorf("syntax error %+v", syn.Error)
	}
	plan := string(f.post("/_plugins/_ppl/_explain", map[string]any{"query": "source=t | where id > 1 | fields name"}, 200))
	if !strings.Contains(plan, "Scan") {
		t.Errorf("explain %s", plan)
	}
}

// TestPPLAsync: an async query with "lang": "ppl" runs and is recorded
// as PPL.
func TestPPLAsync(t *testing.T) {
	f := newFixture(t, 3)
	var sub struct{ QueryID string }
	if err := json.Unmarshal(f.post(AsyncQueryPath, map[string]any{"datasource": "sluice", "lang": "ppl", "query": "source=t | stats count() as n"}, http.StatusCreated), &sub); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := f.asyncStatus(sub.QueryID)
		if r.Status == "SUCCESS" {
			if got, _ := json.Marshal(r.Datarows); string(got) != "[[3]]" {
				t.Errorf("rows %s", got)
			}
			return
		}
		if r.Status == "FAILED" || time.Now().After(deadline) {
			t.Fatalf("status %+v", r)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (f *fixture) pplReply(status int, query string) jdbcReply {
	f.t.Helper()
	var r jdbcReply
	if err := json.Unmarshal(f.post("/_plugins/_ppl", map[string]any{"query": query}, status), &r); err != nil {
		f.t.Fatal(err)
	}
	return r
}

// TestPPLStatementAPI: /api/v1/statement with "lang": "ppl" (what
// `sluice ppl --server` sends) reads the query as PPL, so errors count
// columns in the PPL text.
func TestPPLStatementAPI(t *testing.T) {
	f := newFixture(t, 3)
	var out StatementResponse
	if err := json.Unmarshal(f.post(APIStatementPath, map[string]any{"query": "source=t | stats count() as n", "lang": "ppl"}, 200), &out); err != nil {
		t.Fatal(err)
	}
	if out.Arrow == "" {
		t.Fatalf("no rows: %+v", out)
	}
	bad := string(f.post(APIStatementPath, map[string]any{"query": "source=t | where nope > 1", "lang": "ppl"}, 400))
	if !strings.Contains(bad, "at line 1:18") {
		t.Errorf("error %s", bad)
	}
}

// TestPPLRemote: `sluice ppl --server` (cli.Remote with a PPL statement)
// gets the rows, and binding errors with the PPL text's columns.
func TestPPLRemote(t *testing.T) {
	f := newFixture(t, 3)
	r := &cli.Remote{URL: f.http.URL}
	st, err := ppl.Statement("source=t | where id > 0 | stats count() as n")
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.ExecuteStatement(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := cli.WriteResult(&b, cli.CSV{}, res); err != nil {
		t.Fatal(err)
	}
	if b.String() != "n\n2\n" {
		t.Errorf("csv %q", b.String())
	}
	st, _ = ppl.Statement("source=t | where nope > 0")
	if _, err := r.ExecuteStatement(context.Background(), st); err == nil || !strings.Contains(err.Error(), "at line 1:18") {
		t.Errorf("error %v", err)
	}
}
