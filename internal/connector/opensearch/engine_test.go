package opensearch_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// TestEngineQueries runs SQL through the engine: an INSERT into an
// opensearch table, then queries over it (with pushdown) compared with
// the same queries over the source file (evaluated by the engine).
func TestEngineQueries(t *testing.T) {
	n := needNode(t)
	_, here, _, _ := runtime.Caller(0)
	people := filepath.Join(filepath.Dir(here), "..", "..", "..", "testdata", "data", "json", "people.json")
	eng, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	exec := func(sql string) [][]string {
		t.Helper()
		res, err := eng.Execute(ctx, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		var rows [][]string
		for _, r := range res {
			for _, b := range r.Batches {
				for i := 0; i < int(b.NumRows()); i++ {
					row := make([]string, b.NumCols())
					for c := range row {
						row[c] = types.FormatValue(b.Column(c), i)
					}
					rows = append(rows, row)
				}
			}
			if r.Message != "" {
				rows = append(rows, []string{r.Message})
			}
		}
		return rows
	}
	exec(fmt.Sprintf(`CREATE TABLE people (id INT, name STRING, city STRING, score DOUBLE, active BOOLEAN,
		joined TIMESTAMP, tags ARRAY<STRING>) USING json LOCATION '%s'`, people))
	exec(fmt.Sprintf(`CREATE TABLE os_people (id INT, name STRING, city STRING, score DOUBLE, active BOOLEAN,
		joined TIMESTAMP, tags ARRAY<STRING>, bio STRING) USING opensearch
		OPTIONS (endpoint '%s', index 'engine-people', id 'id', refresh 'wait_for', text_fields 'bio')`, n.URL))
	got := exec(`INSERT INTO os_people SELECT id, name, city, score, active, joined, tags, concat(name, ' lives in ', city) FROM people`)
	if len(got) != 1 || !strings.Contains(got[0][0], "inserted") {
		t.Fatalf("insert: %v", got)
	}
	where := []string{
		"city = 'Paris'",
		"score >= 80 AND active = true",
		"joined < TIMESTAMP '2026-03-01 00:00:00'",
		"match(bio, 'london TOKYO')",
		"match_phrase(bio, 'lives in paris')",
		"city IN ('London', 'Tokyo') OR score < 70",
		"NOT (city = 'Paris')",
		"name IS NULL",
		"upper(city) = 'BERLIN'",
	}
	for _, w := range where {
		t.Run(w, func(t *testing.T) {
			q := "SELECT id, name, city, score, active, joined, tags FROM %s WHERE " + w
			file := strings.Replace(q, "match(bio,", "match(concat(name, ' lives in ', city),", 1)
			file = strings.Replace(file, "match_phrase(bio,", "match_phrase(concat(name, ' lives in ', city),", 1)
			a := flat(exec(fmt.Sprintf(q, "os_people")))
			b := flat(exec(fmt.Sprintf(file, "people")))
			if strings.Join(a, "\n") != strings.Join(b, "\n") {
				t.Errorf("opensearch:\n%s\nengine over the file:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
			plan := strings.Join(flat(exec("EXPLAIN "+fmt.Sprintf(q, "os_people"))), "\n")
			if !strings.Contains(plan, "opensearch index=engine-people") || strings.Contains(plan, "password") {
				t.Errorf("EXPLAIN:\n%s", plan)
			}
			t.Logf("%d rows; %s", len(a), plan)
		})
	}
	// GROUP BY pushed down as an aggregation equals the engine's own
	// aggregation over the file, and EXPLAIN says it was pushed.
	groups := []string{
		"SELECT city, count(*), sum(id), min(score), max(score), avg(score) FROM %s GROUP BY city",
		"SELECT active, count(*) FROM %s WHERE score >= 70 GROUP BY active",
		"SELECT date_trunc('day', joined) AS d, count(*) FROM %s GROUP BY date_trunc('day', joined)",
	}
	for _, q := range groups {
		t.Run(q, func(t *testing.T) {
			a := flat(exec(fmt.Sprintf(q, "os_people")))
			b := flat(exec(fmt.Sprintf(q, "people")))
			sort.Strings(a)
			sort.Strings(b)
			if strings.Join(a, "\n") != strings.Join(b, "\n") {
				t.Errorf("opensearch:\n%s\nengine over the file:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
			plan := strings.Join(flat(exec("EXPLAIN "+fmt.Sprintf(q, "os_people"))), "\n")
			if strings.Contains(plan, "HashAggregate") {
				t.Errorf("aggregation not pushed down:\n%s", plan)
			}
			t.Logf("%s", plan)
		})
	}
}

func flat(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, "|")
	}
	sort.Strings(out)
	return out
}

// TestEngineMaterializedView: a materialized view whose sink is an
// OpenSearch index is queryable like a table, equals the batch query,
// and DROP removes its index from the node.
func TestEngineMaterializedView(t *testing.T) {
	n := needNode(t)
	_, here, _, _ := runtime.Caller(0)
	people := filepath.Join(filepath.Dir(here), "..", "..", "..", "testdata", "data", "json", "people.json")
	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	rowsOf := func(sql string) []string {
		t.Helper()
		res, err := eng.Execute(ctx, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		var rows []string
		for _, r := range res {
			for _, b := range r.Batches {
				for i := 0; i < int(b.NumRows()); i++ {
					var vals []string
					for c := 0; c < int(b.NumCols()); c++ {
						vals = append(vals, types.FormatValue(b.Column(c), i))
					}
					rows = append(rows, strings.Join(vals, " "))
				}
			}
		}
		sort.Strings(rows)
		return rows
	}
	rowsOf(fmt.Sprintf(`CREATE TABLE people (id INT, name STRING, city STRING, score DOUBLE, active BOOLEAN,
		joined TIMESTAMP, tags ARRAY<STRING>) USING json LOCATION '%s'`, people))
	rowsOf(fmt.Sprintf(`CREATE MATERIALIZED VIEW city_counts AS SELECT city, count(*) AS n FROM people GROUP BY city
		WITH (sink = 'opensearch', endpoint = '%s', index = 'mv-city-counts', refresh = 'wait_for')`, n.URL))
	got := rowsOf("SELECT city, n FROM city_counts")
	want := rowsOf("SELECT city, count(*) FROM people GROUP BY city")
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("view: %v\nbatch: %v", got, want)
	}
	rowsOf("DROP MATERIALIZED VIEW city_counts")
	resp, err := http.Get(n.URL + "/mv-city-counts")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("the view's index still exists after DROP: %d", resp.StatusCode)
	}
}
