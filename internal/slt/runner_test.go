package slt

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// fake answers SQL from a table, so the runner is tested without the
// engine working.
type fake map[string]any // *engine.Result or error

func (f fake) Execute(_ context.Context, sql string) ([]*engine.Result, error) {
	switch v := f[sql].(type) {
	case *engine.Result:
		return []*engine.Result{v}, nil
	case error:
		return nil, v
	}
	return nil, errors.New("parse error: unexpected " + strings.Fields(sql)[0])
}

func rows(t *testing.T, fields []arrow.Field, jsonRows string) *engine.Result {
	t.Helper()
	schema := arrow.NewSchema(fields, nil)
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(jsonRows))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Release)
	return &engine.Result{Schema: schema, Batches: []arrow.RecordBatch{rec}}
}

func testExec(t *testing.T) fake {
	ab := []arrow.Field{{Name: "a", Type: types.Int, Nullable: true}, {Name: "b", Type: types.String, Nullable: true}}
	return fake{
		"CREATE TABLE t USING json LOCATION '/abs/testdata/x.json'": &engine.Result{Message: "table created"},
		"SELECT a, b FROM t": rows(t, ab, `[{"a": 2, "b": "x"}, {"a": 1, "b": ""}, {"a": null, "b": null}]`),
		"SELECT 0.1 + 0.2":   rows(t, []arrow.Field{{Name: "x", Type: types.Double}}, `[{"x": 0.30000000000000004}]`),
		"SELECT path":        rows(t, []arrow.Field{{Name: "p", Type: types.String}}, `[{"p": "/tmp/t1/out.parquet"}]`),
		"EXPLAIN SELECT a FROM t": rows(t, []arrow.Field{{Name: "plan", Type: types.String}},
			`[{"plan": "Projection: a\n  Scan: t  \n"}]`),
		"SELECT nope": errors.New("column \"nope\" not found at 1:8"),
		"SELECT file": errors.New("reading /abs/testdata/missing.json: no such file"),
	}
}

const good = `# a comment that -update keeps
statement ok
CREATE TABLE t USING json LOCATION '${TESTDATA}/x.json'

query IT rowsort
SELECT a, b FROM t
----
1 | (empty)
2 | x
NULL | NULL

query IT
SELECT a, b FROM t
----
2 | x
1 | (empty)
NULL | NULL

query I valuesort
SELECT a, b FROM t
----
(empty)
1
2
NULL
NULL
x

query R
SELECT 0.1 + 0.2
----
0.3

query T
SELECT path
----
${TMPDIR}/out.parquet

query explain
EXPLAIN SELECT a FROM t
----
Projection: a
  Scan: t

statement error column "nope" not found
SELECT nope

statement error ^column .* at \d+:\d+$
SELECT nope

statement error
SELECT nope

statement error reading ${TESTDATA}/missing.json
SELECT file
`

func newRunner(t *testing.T) *Runner {
	return &Runner{Exec: testExec(t), Vars: map[string]string{"TESTDATA": "/abs/testdata", "TMPDIR": "/tmp/t1"}}
}

func TestRunnerPasses(t *testing.T) {
	s, err := Parse("good.slt", good)
	if err != nil {
		t.Fatal(err)
	}
	// valuesort has "I" over two columns: fix it so this case passes.
	s.Records[3].Types = "IT"
	out := newRunner(t).Run(context.Background(), s)
	for _, f := range out.Failures {
		t.Error(f.Error())
	}
}

func TestRunnerFailures(t *testing.T) {
	tests := []struct {
		name, script string
		want         []string // substrings of the failures, in order
		updated      string   // "" when -update changes nothing
	}{
		{
			name:    "wrong rows",
			script:  "query IT\nSELECT a, b FROM t\n----\n1 | x\n\n# tail\n",
			want:    []string{"x.slt:1: result mismatch (- expected, + actual):\n- 1 | x\n+ 2 | x\n+ 1 | (empty)\n+ NULL | NULL\n    SELECT a, b FROM t"},
			updated: "query IT\nSELECT a, b FROM t\n----\n2 | x\n1 | (empty)\nNULL | NULL\n\n# tail\n",
		},
		{
			name:    "wrong types keep sort mode",
			script:  "query II rowsort\nSELECT a, b FROM t\n----\n1 | (empty)\n2 | x\nNULL | NULL\n",
			want:    []string{"x.slt:1: column types: got IT, want II"},
			updated: "query IT rowsort\nSELECT a, b FROM t\n----\n1 | (empty)\n2 | x\nNULL | NULL\n",
		},
		{
			name:    "missing results section",
			script:  "# c\nquery R\nSELECT 0.1 + 0.2\n\nstatement ok\nCREATE TABLE t USING json LOCATION '${TESTDATA}/x.json'",
			want:    []string{"x.slt:2: result mismatch"},
			updated: "# c\nquery R\nSELECT 0.1 + 0.2\n----\n0.3\n\nstatement ok\nCREATE TABLE t USING json LOCATION '${TESTDATA}/x.json'",
		},
		{
			name:    "wrong error",
			script:  "statement error table not found\nSELECT file\n",
			want:    []string{`error "reading ${TESTDATA}/missing.json: no such file" does not match "table not found"`},
			updated: "statement error reading ${TESTDATA}/missing.json: no such file\nSELECT file\n",
		},
		{
			name:   "statement ok fails",
			script: "statement ok\nSELECT nope\n",
			want:   []string{`x.slt:1: statement failed: column "nope" not found at 1:8`},
		},
		{
			name:   "expected error",
			script: "statement error\nSELECT a, b FROM t\n",
			want:   []string{"statement succeeded, expected an error"},
		},
		{
			name:   "query error",
			script: "query I\nSELECT nope\n----\n1\n",
			want:   []string{"query failed"},
		},
		{
			name:   "query of a message",
			script: "query I\nCREATE TABLE t USING json LOCATION '${TESTDATA}/x.json'\n----\n1\n",
			want:   []string{"query returned no rows"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse("x.slt", tt.script)
			if err != nil {
				t.Fatal(err)
			}
			out := newRunner(t).Run(context.Background(), s)
			if len(out.Failures) != len(tt.want) {
				t.Fatalf("got %d failures, want %d: %v", len(out.Failures), len(tt.want), out.Failures)
			}
			for i, f := range out.Failures {
				if !strings.Contains(f.Error(), tt.want[i]) {
					t.Errorf("failure %d:\n%s\nwant it to contain\n%s", i, f.Error(), tt.want[i])
				}
			}
			for _, f := range out.Failures {
				if f.Fixed != (tt.updated != "") {
					t.Errorf("Fixed = %v for %s", f.Fixed, f.Msg)
				}
			}
			if tt.updated == "" {
				if out.Changed {
					t.Errorf("update changed the file:\n%s", out.Updated)
				}
			} else if out.Updated != tt.updated {
				t.Errorf("updated:\n%s\nwant:\n%s", out.Updated, tt.updated)
			}
		})
	}
}

func TestParse(t *testing.T) {
	s, err := Parse("p.slt", "# header\n# skip: engine not ready\n\nstatement ok\nSELECT 1\n\n# skip: not a header\nquery IT nosort\nSELECT 1,\n  'a'\n----\n1 | a\n")
	if err != nil {
		t.Fatal(err)
	}
	if s.Skip != "engine not ready" || len(s.Records) != 2 {
		t.Fatalf("skip %q, %d records", s.Skip, len(s.Records))
	}
	q := s.Records[1]
	if q.Line != 8 || q.SQL != "SELECT 1,\n  'a'" || q.Types != "IT" || q.Sort != NoSort || len(q.Expected) != 1 {
		t.Fatalf("got %+v", q)
	}
	bad := map[string]string{
		"query X\nSELECT 1\n":               `p.slt:1: unknown column type 'X'`,
		"query I sideways\nSELECT 1\n":      `p.slt:1: unknown sort mode "sideways"`,
		"\nselect 1\n":                      `p.slt:2: unknown record "select 1"`,
		"statement ok\n\n":                  `p.slt:1: record has no SQL`,
		"statement ok\nSELECT 1\n----\n1\n": `p.slt:1: statement records have no ---- section`,
	}
	for text, want := range bad {
		if _, err := Parse("p.slt", text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", text, err, want)
		}
	}
}

func TestDiff(t *testing.T) {
	got := diff([]string{"a", "b", "c"}, []string{"a", "c", "d"})
	if want := "  a\n- b\n  c\n+ d"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
