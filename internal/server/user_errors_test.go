package server

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestUserErrorStatuses: every mistake a user can make in a statement is
// 4xx with the plugin's error body and the exception type the plugin
// names; only the engine's own failures are 500.
func TestUserErrorStatuses(t *testing.T) {
	f := newFixture(t, 3)
	f.sql(200, "CREATE TABLE o (id BIGINT) USING json LOCATION '"+f.out+"/'")
	f.sql(200, "INSERT STREAM INTO o SELECT id FROM t WITH (name = 'feed', trigger = '1 second')")
	f.sql(200, "CREATE MATERIALIZED VIEW mvx AS SELECT id FROM t")
	loc := "'" + filepath.Join(f.dir, "x") + "/'"
	for _, tt := range []struct {
		query  string
		status int
		typ    string
		detail string
	}{
		// Parse and bind.
		{"SELEC 1", 400, "SyntaxCheckException", "line 1:1"},
		{"SELECT nosuchfn(id) FROM t", 400, "SemanticCheckException", "unknown function"},
		{"SELECT * FROM t WHERE id = 'abc'", 400, "SemanticCheckException", "cannot cast"},
		{"SELECT id FROM t LIMIT -1", 400, "SemanticCheckException", "LIMIT"},
		{"EXPLAIN SELECT nope FROM t", 400, "SemanticCheckException", "did you mean"},
		// Options and values.
		{"CREATE TABLE x (id BIGINT) USING json LOCATION " + loc + " OPTIONS (nope 'x')", 400, "IllegalArgumentException", `unknown option "nope"`},
		{"CREATE TABLE x (id BIGINT) USING csv LOCATION " + loc + " OPTIONS (header 'maybe')", 400, "IllegalArgumentException", "not a boolean"},
		{"CREATE TABLE x (id BIGINT) USING json LOCATION " + loc + " OPTIONS (mode 'WRONG')", 400, "IllegalArgumentException", "not a mode"},
		{"CREATE TABLE x (id BIGINT) USING json LOCATION " + loc + " OPTIONS (sample_rows 'abc')", 400, "IllegalArgumentException", "sample_rows"},
		{"CREATE TABLE x (id BIGINT) USING nosuchfmt LOCATION " + loc, 400, "IllegalArgumentException", "unknown connector"},
		{"CREATE EXTERNAL TABLE x (id BIGINT) USING json", 400, "IllegalArgumentException", "LOCATION (or OPTIONS (path ...)) is required"},
		{"SET memory_limit = 'lots'", 400, "IllegalArgumentException", "memory size"},
		{"DROP DATABASE default", 400, "IllegalArgumentException", "cannot be dropped"},
		{"INSERT INTO o SELECT id, name FROM t", 400, "IllegalArgumentException", "2 columns but the table has 1"},
		{"INSERT STREAM INTO o SELECT id FROM t WITH (trigger 'bogus')", 400, "IllegalArgumentException", "trigger"},
		{"INSERT STREAM INTO o SELECT id FROM t WITH (nosuch 'x')", 400, "IllegalArgumentException", `unknown option "nosuch"`},
		{"INSERT STREAM INTO o SELECT id FROM t WITH (lock_ttl 'never')", 400, "IllegalArgumentException", "lock_ttl"},
		{"CREATE MATERIALIZED VIEW mv AS SELECT id FROM t WITH (auto_refresh 'maybe')", 400, "IllegalArgumentException", "not a boolean"},
		{"CREATE MATERIALIZED VIEW mv AS SELECT id FROM t WITH (nosuch 'x')", 400, "IllegalArgumentException", "unknown option"},
		{"CREATE MATERIALIZED VIEW mv AS SELECT id FROM t WITH (refresh_interval 'soon', auto_refresh 'true')", 400, "IllegalArgumentException", "refresh_interval"},
		{"CREATE TABLE `a/b` (id BIGINT) USING json LOCATION " + loc, 400, "IllegalArgumentException", "invalid name"},
		{"CREATE DATABASE `a/b`", 400, "IllegalArgumentException", "invalid name"},
		{"CREATE TABLE c AS SELECT id FROM t", 400, "IllegalArgumentException", "USING is required"},
		{"INSERT STREAM INTO o SELECT id FROM t WITH (name = 'feed')", 400, "IllegalArgumentException", "already running"},
		{"INSERT STREAM INTO o SELECT id FROM t WITH (name = 'feed2', output_mode = 'weird')", 400, "IllegalArgumentException", "output_mode"},
		{"INSERT STREAM INTO o SELECT id FROM t WITH (name = 'feed3', watermark_delay = 'soon')", 400, "IllegalArgumentException", "watermark_delay"},
		{"INSERT STREAM INTO t SELECT id, name, note, neg FROM t", 400, "IllegalArgumentException", "its own output"},
		{"ALTER MATERIALIZED VIEW mvx WITH (nosuch = 'x')", 400, "IllegalArgumentException", "cannot be changed"},
		{"ALTER MATERIALIZED VIEW mvx WITH (auto_refresh = 'maybe')", 400, "IllegalArgumentException", "not a boolean"},
		{"CREATE MATERIALIZED VIEW mv3 AS SELECT id FROM t WITH (extra_options = 'not json')", 400, "IllegalArgumentException", "extra_options"},
		{"CREATE MATERIALIZED VIEW mv4 AS SELECT id FROM t WITH (sink = 'nosuch')", 400, "IllegalArgumentException", "unknown connector"},
		{"CREATE TABLE x (id BIGINT) USING opensearch", 400, "IllegalArgumentException", "index is required"},
		{"CREATE TABLE x (id BIGINT) USING opensearch OPTIONS (endpoint 'not a url', index 'i')", 400, "IllegalArgumentException", "http://"},
		{"INSERT INTO o (nope) SELECT 1", 400, "IllegalArgumentException", "no column nope"},
		{"INSERT OVERWRITE TABLE t SELECT id, name, note, neg FROM t", 400, "IllegalArgumentException", "reads the table it overwrites"},
		{"SELECT sum(name) FROM t", 400, "SemanticCheckException", "numeric"},
		{"SELECT regexp_extract(name, '(', 1) FROM t", 400, "SemanticCheckException", "regular expression"},
		// Rows an expression cannot compute.
		{"SELECT CAST(name AS BIGINT) FROM t", 400, "ExpressionEvaluationException", "cannot cast 'n0' to BIGINT"},
		{"SELECT 1/0", 400, "ExpressionEvaluationException", "division by zero"},
		{"SELECT id + 9223372036854775807 FROM t", 400, "ExpressionEvaluationException", "does not fit"},
		{"SELECT CAST('2026-13-45' AS DATE)", 400, "ExpressionEvaluationException", "cannot cast"},
		// Not found and already exists.
		{"SELECT * FROM missing", 404, "IndexNotFoundException", "no such index [missing]"},
		{"SELECT * FROM nosuchdb.t", 404, "IndexNotFoundException", "nosuchdb"},
		{"DROP TABLE missing", 404, "IndexNotFoundException", "no such index [missing]"},
		{"DESCRIBE missing", 404, "IndexNotFoundException", "no such index [missing]"},
		{"INSERT INTO missing SELECT 1", 404, "IndexNotFoundException", "no such index [missing]"},
		{"STOP STREAM missing", 404, "IndexNotFoundException", "not found"},
		{"START STREAM missing", 404, "IndexNotFoundException", "not found"},
		{"REFRESH MATERIALIZED VIEW missing", 404, "IndexNotFoundException", "not found"},
		{"USE nosuchdb", 404, "IndexNotFoundException", "not found"},
		{"SHOW TABLES IN nosuchdb", 404, "IndexNotFoundException", "not found"},
		{"CREATE TABLE y USING json LOCATION '" + filepath.Join(f.dir, "nowhere") + "/'", 404, "IndexNotFoundException", "does not exist"},
		{"CREATE TABLE t (id BIGINT) USING json LOCATION " + loc, 400, "IllegalArgumentException", "already exists"},
		{"CREATE DATABASE default", 400, "IllegalArgumentException", "already exists"},
		{"SHOW TBLPROPERTIES t ('nosuch')", 404, "IndexNotFoundException", "no property"},
	} {
		for _, path := range []string{"/_plugins/_sql", APIStatementPath} {
			var r jdbcReply
			if err := json.Unmarshal(f.post(path, map[string]any{"query": tt.query}, 0), &r); err != nil {
				t.Fatalf("%s %s: %v", path, tt.query, err)
			}
			if r.Status != tt.status || r.Error == nil || r.Error.Type != tt.typ || r.Error.Reason == "" || !strings.Contains(r.Error.Details, tt.detail) {
				t.Errorf("%s %s:\n got %d %+v\nwant %d %s %q", path, tt.query, r.Status, r.Error, tt.status, tt.typ, tt.detail)
			}
		}
	}
}

// TestAsyncUserErrors: the async API refuses what it can check at once
// (syntax) with 400 and records what fails while running as FAILED with
// the error, without failing the server.
func TestAsyncUserErrors(t *testing.T) {
	f := newFixture(t, 1)
	var r jdbcReply
	_ = json.Unmarshal(f.post(AsyncQueryPath, map[string]any{"datasource": "sluice", "lang": "sql", "query": "SELEC 1"}, 400), &r)
	if r.Error == nil || r.Error.Type != "SyntaxCheckException" {
		t.Errorf("syntax error: %+v", r.Error)
	}
	id := f.submit("CREATE TABLE x (id BIGINT) USING json LOCATION '" + f.in + "/' OPTIONS (nope 'x')")
	if a := f.waitAsync(id, asyncFailed); !strings.Contains(a.Error, `unknown option "nope"`) {
		t.Errorf("bad option: %+v", a)
	}
	f.do("GET", AsyncQueryPath+"/nosuchquery", 400)
}
