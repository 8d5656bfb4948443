package server

import (
	"bytes"

	"encoding/json"
	"github.com/apache/arrow-go/v18/arrow"
	"strings"
	"testing"
)

// TestPPLResponseShape decodes /_plugins/_ppl's answer as the plugin's
// PPL protocol docs show it: exactly schema, datarows, total and size
// (no status), PPL's type names for every type, and fetch_size capping
// the rows without a cursor.
func TestPPLResponseShape(t *testing.T) {
	f := newFixture(t, 5)
	// The engine keeps TINYINT, SMALLINT and FLOAT as int and double;
	// TestPPLTypeNames names the narrow Arrow types.
	f.sql(200, "CREATE VIEW v AS SELECT id, name, CAST(id AS INT) AS i, CAST(id AS DOUBLE) AS d, id > 1 AS ok, DATE '2026-01-02' AS dt, "+
		"TIMESTAMP '2026-01-02 03:04:05' AS ts, array(id) AS arr, named_struct('a', id) AS st FROM t")
	q := "source=v | head 1"
	out := f.post("/_plugins/_ppl", map[string]any{"query": q}, 200)
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var r struct {
		Schema []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"schema"`
		Datarows [][]any `json:"datarows"`
		Total    int     `json:"total"`
		Size     int     `json:"size"`
	}
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("decoding %s as the plugin's PPL response: %v", out, err)
	}
	var types []string
	for _, c := range r.Schema {
		types = append(types, c.Name+":"+c.Type)
	}
	want := "id:bigint name:string i:int d:double ok:boolean dt:date ts:timestamp arr:array st:struct"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("schema %s\nwant   %s", got, want)
	}
	if r.Total != 1 || r.Size != 1 || len(r.Datarows) != 1 {
		t.Errorf("reply %s", out)
	}
	if js := f.post("/_plugins/_ppl?format=json", map[string]any{"query": "source=t | fields id | head 1"}, 200); !bytes.Contains(js, []byte(`"type":"bigint"`)) || bytes.Contains(js, []byte(`"status"`)) {
		t.Errorf("format=json: %s", js)
	}

	// fetch_size: at most that many rows, all in one answer, no cursor
	// (in the body or, as the plugin also reads it, the URL).
	for _, path := range []string{"/_plugins/_ppl", "/_plugins/_ppl?fetch_size=2"} {
		body := map[string]any{"query": "source=t | sort id | fields id"}
		if !strings.Contains(path, "?") {
			body["fetch_size"] = 2
		}
		got := f.post(path, body, 200)
		var p map[string]any
		if err := json.Unmarshal(got, &p); err != nil {
			t.Fatal(err)
		}
		if _, ok := p["cursor"]; ok {
			t.Errorf("%s: a cursor in %s", path, got)
		}
		if rows, _ := json.Marshal(p["datarows"]); string(rows) != "[[0],[1]]" || p["total"] != 2.0 || p["size"] != 2.0 {
			t.Errorf("%s: %s", path, got)
		}
	}
	if got := f.post("/_plugins/_ppl", map[string]any{"query": "source=t | fields id", "fetch_size": 0}, 200); !bytes.Contains(got, []byte(`"total":5`)) {
		t.Errorf("fetch_size 0 is the system default: %s", got)
	}
	f.post("/_plugins/_ppl", map[string]any{"cursor": "abc"}, 400)
}

// TestPPLTypeNames: every Arrow type by the name PPLLangSpec gives it.
func TestPPLTypeNames(t *testing.T) {
	for _, c := range []struct {
		t    arrow.DataType
		want string
	}{
		{arrow.PrimitiveTypes.Int8, "tinyint"}, {arrow.PrimitiveTypes.Int16, "smallint"},
		{arrow.PrimitiveTypes.Int32, "int"}, {arrow.PrimitiveTypes.Int64, "bigint"},
		{arrow.PrimitiveTypes.Float32, "float"}, {arrow.PrimitiveTypes.Float64, "double"},
		{arrow.BinaryTypes.String, "string"}, {arrow.FixedWidthTypes.Boolean, "boolean"},
		{arrow.FixedWidthTypes.Date32, "date"}, {arrow.FixedWidthTypes.Timestamp_us, "timestamp"},
		{arrow.FixedWidthTypes.Time64us, "time"}, {arrow.BinaryTypes.Binary, "binary"},
		{arrow.ListOf(arrow.PrimitiveTypes.Int64), "array"}, {arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}), "struct"},
		{arrow.Null, "undefined"}, {arrow.FixedWidthTypes.MonthDayNanoInterval, "interval"},
	} {
		if got := pplType(c.t); got != c.want {
			t.Errorf("%s: %s, want %s", c.t, got, c.want)
		}
	}
}

// TestPPLIndexNotFound decodes the error of the PPL protocol docs'
// example 2: an unknown index is a 404 IndexNotFoundException whose
// reason and details are "no such index [unknown]", on both endpoints.
func TestPPLIndexNotFound(t *testing.T) {
	f := newFixture(t, 1)
	for path, q := range map[string]string{
		"/_plugins/_ppl": "source=unknown | fields firstname, lastname",
		"/_plugins/_sql": "SELECT firstname FROM unknown",
	} {
		var r struct {
			Error struct {
				Reason  string `json:"reason"`
				Details string `json:"details"`
				Type    string `json:"type"`
			} `json:"error"`
			Status int `json:"status"`
		}
		if err := json.Unmarshal(f.post(path, map[string]any{"query": q}, 404), &r); err != nil {
			t.Fatal(err)
		}
		if r.Status != 404 || r.Error.Type != "IndexNotFoundException" || r.Error.Reason != "no such index [unknown]" || r.Error.Details != "no such index [unknown]" {
			t.Errorf("%s: %+v", path, r)
		}
	}
}

// pplErrorReply is the plugin's PPL error body as its docs show it
// (protocol.md's example 2, the mvcombine and mvexpand pages): the
// ErrorReport's type, code, reason, details, location, context and
// suggestion.
type pplErrorReply struct {
	Error struct {
		Type       string         `json:"type"`
		Code       string         `json:"code"`
		Reason     string         `json:"reason"`
		Details    string         `json:"details"`
		Location   []string       `json:"location"`
		Context    map[string]any `json:"context"`
		Suggestion string         `json:"suggestion"`
	} `json:"error"`
	Status int `json:"status"`
}

// TestPPLErrorReport decodes the PPL endpoint's error reports: an
// unknown index (INDEX_NOT_FOUND with index_name, as protocol.md's
// example 2), an unknown field (FIELD_NOT_FOUND with requested_field,
// available_fields, query_pos and a suggestion), a semantic and an
// evaluation error (their stages); syntax errors keep the plain body.
func TestPPLErrorReport(t *testing.T) {
	f := newFixture(t, 2)
	reply := func(q string, status int) pplErrorReply {
		t.Helper()
		dec := json.NewDecoder(bytes.NewReader(f.post("/_plugins/_ppl", map[string]any{"query": q}, status)))
		dec.DisallowUnknownFields()
		var r pplErrorReply
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := reply("source=unknown | fields firstname, lastname", 404)
	e := r.Error
	if r.Status != 404 || e.Type != "IndexNotFoundException" || e.Code != "INDEX_NOT_FOUND" || e.Reason != "no such index [unknown]" ||
		e.Details != e.Reason || strings.Join(e.Location, "; ") != "while preparing and validating the query plan; while fetching index mappings" ||
		e.Context["index_name"] != "unknown" || e.Context["stage"] != "analyzing" || e.Context["stage_description"] != "Parsing and validating the query" {
		t.Errorf("unknown index: %+v", r)
	}
	r = reply("source=t | fields nmae", 400)
	e = r.Error
	pos, _ := e.Context["query_pos"].(map[string]any)
	avail, _ := e.Context["available_fields"].([]any)
	if e.Type != "IllegalArgumentException" || e.Code != "FIELD_NOT_FOUND" || e.Reason != "Field [nmae] not found." ||
		!strings.Contains(e.Details, `column "nmae" not found`) || e.Context["requested_field"] != "nmae" ||
		len(avail) < 4 || avail[1] != "name" || pos["line"] != 1.0 || pos["column"] != 19.0 ||
		e.Suggestion != "Did you mean: name" || e.Context["stage"] != "analyzing" || len(e.Location) != 1 {
		t.Errorf("unknown field: %+v", r)
	}
	r = reply("source=t | eval x = nosuchfn(id)", 400)
	if e = r.Error; e.Type != "SemanticCheckException" || e.Code != "UNKNOWN" || e.Reason != e.Details || e.Context["stage"] != "analyzing" {
		t.Errorf("semantic error: %+v", r)
	}
	r = reply("source=t | eval x = 1 / 0", 400)
	if e = r.Error; e.Type != "ExpressionEvaluationException" || e.Context["stage"] != "executing" || e.Context["stage_description"] != "Running the query" ||
		strings.Join(e.Location, "") != "while running the query" {
		t.Errorf("evaluation error: %+v", r)
	}
	r = reply("source=t | stats", 400)
	if e = r.Error; e.Type != "SyntaxCheckException" || e.Reason != "Invalid Query" || e.Code != "" || e.Context != nil {
		t.Errorf("syntax error: %+v", r)
	}
}
