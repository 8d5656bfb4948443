package opensearch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// TestEngineFlintIndexes: a skipping index and a covering index whose
// sink is OpenSearch live in the indices Flint names
// (flint_<catalog>_<db>_<table>_skipping_index, ..._<name>_index); the
// skipping index skips files with the same answers; DROP removes both.
func TestEngineFlintIndexes(t *testing.T) {
	n := needNode(t)
	in := t.TempDir()
	for f := range 6 {
		var b strings.Builder
		for r := range 5 {
			fmt.Fprintf(&b, "{\"id\": %d, \"status\": %d, \"ip\": \"10.0.%d.%d\"}\n", f*5+r, 200+f, f, r)
		}
		if err := os.WriteFile(filepath.Join(in, fmt.Sprintf("f%d.json", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	rows := func(q string) []string {
		t.Helper()
		res, err := eng.Execute(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var out []string
		for _, r := range res {
			for _, b := range r.Batches {
				for i := 0; i < int(b.NumRows()); i++ {
					var vals []string
					for c := 0; c < int(b.NumCols()); c++ {
						vals = append(vals, types.FormatValue(b.Column(c), i))
					}
					out = append(out, strings.Join(vals, " "))
				}
			}
		}
		slices.Sort(out)
		return out
	}
	rows("CREATE TABLE logs (id INT, status INT, ip STRING) USING json LOCATION '" + in + "/'")
	queries := []string{"SELECT id FROM logs WHERE id = 17", "SELECT id FROM logs WHERE status = 204", "SELECT id FROM logs WHERE ip = '10.0.1.3'"}
	var before [][]string
	for _, q := range queries {
		before = append(before, rows(q))
	}
	rows(fmt.Sprintf("CREATE SKIPPING INDEX ON logs (id MIN_MAX, status VALUE_SET, ip BLOOM_FILTER) WITH (sink = 'opensearch', endpoint = '%s', refresh = 'wait_for', index_settings = '{\"number_of_replicas\": 0}')", n.URL))
	for i, q := range queries {
		if got := rows(q); !slices.Equal(got, before[i]) {
			t.Errorf("%s: %v with the index, %v without", q, got, before[i])
		}
		plan := strings.Join(rows("EXPLAIN "+q), "\n")
		if m := regexp.MustCompile(`skipped=(\d+)`).FindStringSubmatch(plan); m == nil || m[1] == "0" {
			t.Errorf("%s: no file skipped:\n%s", q, plan)
		}
	}
	count := func(index string) int {
		t.Helper()
		resp, err := http.Get(n.URL + "/" + index + "/_count")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			return -1
		}
		var c struct{ Count int }
		if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
			t.Fatal(err)
		}
		return c.Count
	}
	const skipping = "flint_spark_catalog_default_logs_skipping_index"
	if got := count(skipping); got != 6 {
		t.Errorf("index %s holds %d documents, want one per file (6)", skipping, got)
	}
	rows(fmt.Sprintf("CREATE INDEX ip_status ON logs (ip, status) WITH (sink = 'opensearch', endpoint = '%s', refresh = 'wait_for')", n.URL))
	const covering = "flint_spark_catalog_default_logs_ip_status_index"
	if got := count(covering); got != 30 {
		t.Errorf("index %s holds %d documents, want 30", covering, got)
	}
	rows("DROP SKIPPING INDEX ON logs")
	rows("DROP INDEX ip_status ON logs")
	for _, idx := range []string{skipping, covering} {
		if got := count(idx); got != -1 {
			t.Errorf("index %s still there after DROP (%d documents)", idx, got)
		}
	}
}
