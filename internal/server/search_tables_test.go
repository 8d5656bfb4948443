package server

import (
	"encoding/json"
	"fmt"
	"testing"
)

// searchFixture is a server with three search tables (USING index):
// logs-01 and logs-02, whose columns differ, and metrics.
func searchFixture(t *testing.T) *fixture {
	f := newFixture(t, 1)
	f.sql(200, "CREATE TABLE `logs-01` (msg STRING, n INT) USING index")
	f.sql(200, "INSERT INTO `logs-01` VALUES ('a', 1), ('b', 2)")
	f.sql(200, "CREATE TABLE `logs-02` (msg STRING, host STRING) USING index")
	f.sql(200, "INSERT INTO `logs-02` VALUES ('c', 'h1')")
	f.sql(200, "CREATE TABLE metrics (msg STRING) USING index")
	f.sql(200, "INSERT INTO metrics VALUES ('m')")
	return f
}

// rowsOf is a reply's datarows as JSON, for comparing.
func rowsOf(r jdbcReply) string {
	b, _ := json.Marshal(r.Datarows)
	return string(b)
}

// TestSearchMetadataColumns: a search table offers the plugin's _index
// and _id metadata fields, hidden from SELECT * (and from PPL's default
// field list) until named, on both endpoints; _index filters.
func TestSearchMetadataColumns(t *testing.T) {
	f := searchFixture(t)
	r := f.sql(200, "SELECT msg, _index, _id FROM `logs-01` WHERE _index = 'logs-01' ORDER BY msg")
	if len(r.Datarows) != 2 || r.Datarows[0][1] != "logs-01" || fmt.Sprint(r.Datarows[0][2]) == "" || r.Datarows[0][2] == r.Datarows[1][2] ||
		r.Schema[1].Name != "_index" || r.Schema[1].Type != "keyword" || r.Schema[2].Name != "_id" {
		t.Fatalf("SQL _index, _id: %+v", r)
	}
	if r := f.sql(200, "SELECT * FROM metrics"); len(r.Schema) != 1 {
		t.Fatalf("SELECT * shows hidden columns: %+v", r.Schema)
	}
	p := f.pplReply(200, "source=metrics | fields msg, _index")
	if rowsOf(p) != `[["m","metrics"]]` || p.Schema[1].Type != "string" {
		t.Fatalf("PPL _index: %+v", p)
	}
	if p := f.pplReply(200, "source=metrics"); len(p.Schema) != 1 {
		t.Fatalf("PPL's default fields show hidden columns: %+v", p.Schema)
	}
	if r := f.sql(200, "SELECT count(*) FROM metrics WHERE _index = 'other'"); rowsOf(r) != "[[0]]" {
		t.Fatalf("_index filter: %s", rowsOf(r))
	}
}
