package flint

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"sluice/internal/sql"
)

func TestIsColumnList(t *testing.T) {
	for s, want := range map[string]bool{
		"a": true, "a, b": true, "@timestamp,host_1": true,
		"": false, "a,": false, "concat(a, b)": false, "a + 1": false,
	} {
		if got := isColumnList(s); got != want {
			t.Errorf("isColumnList(%q) = %t, want %t", s, got, want)
		}
	}
}

// TestIDExpression: a column list is the sink's id as it is; any other
// expression becomes the view's __id column over the query.
func TestIDExpression(t *testing.T) {
	q := mustQuery(t, "SELECT a, b FROM t")
	id, out, err := idExpression("a, b", q)
	if err != nil || id != "a, b" || out != q {
		t.Errorf("column list: %q %v %v", id, out, err)
	}
	id, out, err = idExpression("concat(a, '-', b)", q)
	if err != nil || id != idColumn {
		t.Fatalf("expression: %q %v", id, err)
	}
	if got := out.String(); !strings.Contains(got, "AS __id") || !strings.Contains(got, "AS __mv") {
		t.Errorf("expression query: %s", got)
	}
	if _, _, err := idExpression("a +", q); err == nil || !strings.HasPrefix(err.Error(), "id_expression: ") {
		t.Errorf("bad expression: %v", err)
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"maxFilesPerTrigger": "max_files_per_trigger", "max_files_per_trigger": "max_files_per_trigger",
		"index": "index", "Already_Snake": "already_snake",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestJSONOptionMap: an object, or a string holding one; numbers and
// booleans keep their JSON text, null is refused.
func TestJSONOptionMap(t *testing.T) {
	for _, raw := range []string{`{"a": "x", "n": 1, "b": true}`, `"{\"a\": \"x\", \"n\": 1, \"b\": true}"`} {
		m, err := jsonOptionMap(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if want := map[string]string{"a": "x", "n": "1", "b": "true"}; !maps.Equal(m, want) {
			t.Errorf("%s: %v, want %v", raw, m, want)
		}
	}
	if _, err := jsonOptionMap(json.RawMessage(`{"a": null}`)); err == nil {
		t.Error("null value accepted")
	}
	if _, err := jsonOptionMap(json.RawMessage(`[1]`)); err == nil {
		t.Error("array accepted")
	}
}

func TestCheckRefreshModes(t *testing.T) {
	for _, tc := range []struct {
		opts map[string]string
		auto bool
		err  string
	}{
		{map[string]string{}, true, ""},
		{map[string]string{"incremental_refresh": "true"}, false, ""},
		{map[string]string{"incremental_refresh": "true"}, true, "cannot be combined with auto_refresh = true"},
		{map[string]string{"incremental_refresh": "maybe"}, false, "incremental_refresh: "},
		{map[string]string{"scheduler_mode": "External"}, true, ""},
		{map[string]string{"scheduler_mode": "cron"}, true, `scheduler_mode: "cron" is not internal or external`},
	} {
		err := checkRefreshModes(tc.opts, tc.auto)
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%v auto=%t: %v, want %q", tc.opts, tc.auto, err, tc.err)
		}
	}
}

// TestSQLTableNames: every FROM of the query, through subqueries, joins,
// set operations and CTEs, lower-cased.
func TestSQLTableNames(t *testing.T) {
	q := mustQuery(t, "WITH c AS (SELECT * FROM Db.T1) SELECT * FROM (SELECT * FROM t2) AS s JOIN t3 ON s.a = t3.a UNION ALL SELECT * FROM c")
	got := slices.Sorted(maps.Keys(sqlTableNames(q)))
	if want := []string{"c", "db.t1", "t2", "t3"}; !slices.Equal(got, want) {
		t.Errorf("sqlTableNames = %v, want %v", got, want)
	}
}

func mustQuery(t *testing.T, text string) *sql.Query {
	t.Helper()
	q, err := parseQuery(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return q
}
