package opensearch_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// TestSchemaFromMapping: a table over an index another program wrote,
// declared without columns, takes its schema from the mapping; equality on
// a text field goes to its keyword multi-field, _id is a hidden column,
// and a later INSERT may add a column.
func TestSchemaFromMapping(t *testing.T) {
	n := needNode(t)
	const index = "mapped-logs"
	call(t, n, http.MethodPut, "/"+index, `{"mappings":{"properties":{
		"msg":{"type":"text","fields":{"keyword":{"type":"keyword","ignore_above":256}}},
		"host":{"type":"keyword"},
		"status":{"type":"integer"},
		"bytes":{"type":"long"},
		"took":{"type":"float"},
		"ok":{"type":"boolean"},
		"ts":{"type":"date"},
		"client":{"properties":{"ip":{"type":"ip"},"port":{"type":"long"}}},
		"spans":{"type":"nested","properties":{"name":{"type":"keyword"},"ms":{"type":"double"}}},
		"where":{"type":"geo_point"}}}}`)
	docs := []string{
		`{"msg":"GET /index.html","host":"a","status":200,"bytes":512,"took":1.5,"ok":true,"ts":"2026-11-30T10:00:00Z","client":{"ip":"10.0.0.1","port":4000},"spans":[{"name":"db","ms":2.5}]}`,
		`{"msg":"POST /login failed","host":"b","status":401,"bytes":20,"took":0.25,"ok":false,"ts":"2026-11-30T11:00:00Z","client":{"ip":"10.0.0.2","port":4001},"spans":[]}`,
		`{"msg":"GET /index.html","host":"c","status":304,"bytes":0,"took":0.5,"ok":true,"ts":"2026-11-30T12:00:00Z"}`,
	}
	var bulk strings.Builder
	for i, d := range docs {
		fmt.Fprintf(&bulk, "{\"index\":{\"_id\":\"doc-%d\"}}\n%s\n", i+1, d)
	}
	call(t, n, http.MethodPost, "/"+index+"/_bulk?refresh=true", bulk.String())

	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	q := func(sql string) string {
		t.Helper()
		res, err := eng.Execute(context.Background(), sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		var lines []string
		for _, r := range res {
			for _, b := range r.Batches {
				for i := 0; i < int(b.NumRows()); i++ {
					row := make([]string, b.NumCols())
					for c := range row {
						row[c] = types.FormatValue(b.Column(c), i)
					}
					lines = append(lines, strings.Join(row, " | "))
				}
			}
			if r.Message != "" {
				lines = append(lines, r.Message)
			}
		}
		return strings.Join(lines, "\n")
	}
	q(fmt.Sprintf(`CREATE TABLE logs USING opensearch OPTIONS (endpoint '%s', index '%s', refresh 'wait_for')`, n.URL, index))
	want := strings.Join([]string{
		"bytes | bigint | NULL",
		"client | struct<ip:string,port:bigint> | NULL",
		"msg | string | NULL",
		"ok | boolean | NULL",
		"spans | array<struct<ms:double,name:string>> | NULL",
		"status | int | NULL",
		"took | double | NULL",
		"ts | timestamp | NULL",
	}, "\n")
	if got := q("DESCRIBE logs"); !strings.HasPrefix(got, strings.Join(strings.Split(want, "\n")[:2], "\n")) || !strings.Contains(got, "ts | timestamp") || strings.Contains(got, "where") {
		t.Fatalf("DESCRIBE logs:\n%s\nwant (host among them, geo_point left out):\n%s", got, want)
	}
	if got := q("SELECT _id, host, status FROM logs WHERE msg = 'GET /index.html' ORDER BY _id"); got != "doc-1 | a | 200\ndoc-3 | c | 304" {
		t.Errorf("equality on a text field: %q", got)
	}
	plan := q("EXPLAIN SELECT host FROM logs WHERE msg = 'GET /index.html'")
	if !strings.Contains(plan, `"msg.keyword"`) {
		t.Errorf("equality on a text field is not pushed to its keyword sub-field:\n%s", plan)
	}
	if got := q("SELECT host FROM logs WHERE match(msg, 'login')"); got != "b" {
		t.Errorf("match on a text field: %q", got)
	}
	if got := q("SELECT _index, _id, host FROM logs WHERE _index = '" + index + "' AND _id = 'doc-2'"); got != index+" | doc-2 | b" {
		t.Errorf("_index and _id: %q", got)
	}
	if got := q("SELECT host, client.port, size(spans) FROM logs WHERE _id = 'doc-2'"); got != "b | 4001 | 0" {
		t.Errorf("nested values by _id: %q", got)
	}
	if got := q("SELECT count(*) FROM logs WHERE ts >= TIMESTAMP '2026-11-30 11:00:00' AND took < 1"); got != "2" {
		t.Errorf("date and float filters: %q", got)
	}
	if got := q("SELECT * FROM logs WHERE host = 'c'"); strings.Contains(got, "doc-3") {
		t.Errorf("SELECT * shows the hidden _id: %q", got)
	}
	// A later INSERT adds a column; the mapping and the table both have it.
	q("INSERT INTO logs SELECT 'd' AS host, 500 AS status, 'late' AS region")
	if got := q("SELECT host, status, region FROM logs WHERE region IS NOT NULL"); got != "d | 500 | late" {
		t.Errorf("a column added by INSERT: %q", got)
	}
	if m := call(t, n, http.MethodGet, "/"+index+"/_mapping", ""); !strings.Contains(m, `"region"`) {
		t.Errorf("the new column is not in the mapping: %s", m)
	}
	if _, err := eng.Execute(context.Background(), "INSERT INTO logs SELECT 'x' AS status"); err == nil || !strings.Contains(err.Error(), "column status is INT") {
		t.Errorf("a type conflict: %v", err)
	}
}

// TestSchemaFromFirstInsert: a table over an index that does not exist
// yet starts with no columns and takes them from its first INSERT.
func TestSchemaFromFirstInsert(t *testing.T) {
	n := needNode(t)
	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	for _, s := range []string{
		fmt.Sprintf(`CREATE TABLE fresh USING opensearch OPTIONS (endpoint '%s', index 'fresh-index', refresh 'wait_for')`, n.URL),
		`INSERT INTO fresh SELECT 1 AS id, 'a' AS name, TIMESTAMP '2026-11-30 10:00:00' AS ts`,
		`INSERT INTO fresh (id, score) VALUES (2, 9.5)`,
	} {
		if _, err := eng.Execute(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	res, err := eng.Execute(ctx, `SELECT id, name, ts, score FROM fresh ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range res[0].Batches {
		for i := 0; i < int(b.NumRows()); i++ {
			row := make([]string, b.NumCols())
			for c := range row {
				row[c] = types.FormatValue(b.Column(c), i)
			}
			got = append(got, strings.Join(row, " | "))
		}
	}
	if strings.Join(got, "\n") != "1 | a | 2026-11-30 10:00:00 | NULL\n2 | NULL | NULL | 9.5" {
		t.Errorf("rows: %q", got)
	}
}

// TestInsertIntoIndexWithoutMappings: an index made elsewhere with
// settings only has no properties in its mapping; the first INSERT adds
// its columns there (it dereferenced the missing properties and
// panicked).
func TestInsertIntoIndexWithoutMappings(t *testing.T) {
	n := needNode(t)
	call(t, n, http.MethodPut, "/bare-index", `{"settings": {"number_of_shards": 1, "number_of_replicas": 0}}`)
	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	for _, s := range []string{
		fmt.Sprintf(`CREATE TABLE bare (id BIGINT, name STRING) USING opensearch OPTIONS (endpoint '%s', index 'bare-index')`, n.URL),
		`INSERT INTO bare VALUES (1, 'a')`,
	} {
		if _, err := eng.Execute(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if m := call(t, n, http.MethodGet, "/bare-index/_mapping", ""); !strings.Contains(m, `"name"`) {
		t.Errorf("the columns are not in the mapping: %s", m)
	}
}
