package cli

import (
	"errors"
	"strings"
	"testing"
)

// TestHints: each habit from DuckDB, psql or SQLite that fails
// gets its hint; an error of another kind gets none.
func TestHints(t *testing.T) {
	syntax := errors.New("syntax error at line 1:15: expected table name but found a string literal")
	notFound := errors.New(`table "pg_tables" not found`)
	for _, c := range []struct {
		input string
		err   error
		want  string // "" for no hint
	}{
		{"FROM 'logs/'", syntax, "SELECT * FROM json.`logs/`"},
		{"SELECT * FROM 'a/b.parquet'", syntax, "SELECT * FROM parquet.`a/b.parquet`"},
		{"select * from read_json_auto('x.json') limit 2", syntax, "read_json_auto('x.json') is written json.`x.json`"},
		{"SELECT count(*) FROM read_csv('d/*.csv')", errors.New(`function read_csv not found`), "csv.`d/*.csv`"},
		{"SELECT * FROM parquet_scan('p.parquet')", syntax, "parquet.`p.parquet`"},
		{"FROM logs", errors.New("syntax error at line 1:10: expected SELECT after the FROM clause but found end of input"), "SELECT * FROM logs (or TABLE logs)"},
		{"SELECT * FROM pg_tables", notFound, "SHOW TABLES"},
		{"SELECT table_name FROM information_schema.tables", errors.New(`database "information_schema" not found`), "SHOW TABLES"},
		{`\dt`, errors.New(`syntax error at line 1:1: unexpected character '\'`), "interactive shell"},
		{".tables", errors.New("syntax error at line 1:1: expected a statement but found '.'"), "interactive shell"},
		{"SELECT * FROM t", notFound, ""},
		{"SELECT 'FROM ''x'''", errors.New("division by zero"), ""},
	} {
		got := hint(c.input, c.err)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("hint(%q, %q) = %q, want one saying %q", c.input, c.err, got, c.want)
		}
	}
}

// TestScriptErrorCarriesHint: -e and -f errors carry the hint to the
// command, which prints it on its own line.
func TestScriptErrorCarriesHint(t *testing.T) {
	err := withHint("SELECT * FROM read_parquet('x.parquet')", errors.New("syntax error"))
	if h := HintOf(err); !strings.Contains(h, "parquet.`x.parquet`") {
		t.Errorf("HintOf = %q", h)
	}
	if err.Error() != "syntax error" {
		t.Errorf("the hint changed the error's text: %q", err)
	}
	if HintOf(errors.New("x")) != "" {
		t.Error("a plain error has no hint")
	}
}
