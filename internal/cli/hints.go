package cli

import (
	"errors"
	"regexp"
	"strings"
)

// hint is a line of advice for an error a habit from another database
// causes, "" when there is none. Each rule sees the statement as typed
// and the error it got; the first that matches speaks.
func hint(input string, err error) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	for _, r := range hintRules {
		if h := r(strings.TrimSpace(input), msg); h != "" {
			return h
		}
	}
	return ""
}

var hintRules = []func(input, msg string) string{
	duckdbReadFunction,
	duckdbFromString,
	duckdbFromOnly,
	catalogViews,
	metaOutsideShell,
}

var readFunc = regexp.MustCompile(`(?i)\b(read_json_auto|read_json|read_ndjson_auto|read_ndjson|read_json_objects|read_parquet|parquet_scan|read_csv_auto|read_csv)\s*\(\s*'([^']*)'`)

// duckdbReadFunction: DuckDB's read_json_auto('p') and friends are
// Spark's direct file queries here, json.`p`.
func duckdbReadFunction(input, msg string) string {
	m := readFunc.FindStringSubmatch(input)
	if m == nil {
		return ""
	}
	f := strings.ToLower(m[1])
	format := "json"
	switch {
	case strings.Contains(f, "parquet"):
		format = "parquet"
	case strings.Contains(f, "csv"):
		format = "csv"
	}
	return "DuckDB's " + f + "('" + m[2] + "') is written " + format + ".`" + m[2] + "` here: SELECT * FROM " + format + ".`" + m[2] + "`"
}

var fromString = regexp.MustCompile(`(?i)\bFROM\s+'([^']*)'`)

// duckdbFromString: DuckDB reads FROM 'file' (and FROM-first queries);
// Spark names the format.
func duckdbFromString(input, msg string) string {
	m := fromString.FindStringSubmatch(input)
	if m == nil || !strings.Contains(msg, "syntax error") {
		return ""
	}
	format := "json"
	switch p := strings.ToLower(strings.TrimSuffix(m[1], "/")); {
	case strings.HasSuffix(p, ".parquet"):
		format = "parquet"
	case strings.HasSuffix(p, ".csv"):
		format = "csv"
	}
	return "to query files directly, name their format: SELECT * FROM " + format + ".`" + m[1] + "` (json, csv or parquet)"
}

var fromOnly = regexp.MustCompile(`(?is)^FROM\s+(.+?)\s*;?$`)

// duckdbFromOnly: DuckDB's bare FROM t means SELECT * FROM t; Spark's
// FROM-first form needs its SELECT.
func duckdbFromOnly(input, msg string) string {
	m := fromOnly.FindStringSubmatch(input)
	if m == nil || !strings.Contains(msg, "expected SELECT after the FROM clause") {
		return ""
	}
	return "DuckDB's FROM " + m[1] + " is written SELECT * FROM " + m[1] + " (or TABLE " + m[1] + ") here"
}

var catalogView = regexp.MustCompile(`(?i)\b(information_schema\.\w+|pg_catalog\.\w+|pg_tables|pg_class|sqlite_master|duckdb_tables)\b`)

// catalogViews: the catalog is read with SHOW and DESCRIBE.
func catalogViews(input, msg string) string {
	if !catalogView.MatchString(input) || !strings.Contains(msg, "not found") {
		return ""
	}
	return "list tables with SHOW TABLES [IN db] (or \\dt), columns with DESCRIBE t (or \\d t), functions with SHOW FUNCTIONS"
}

// metaOutsideShell: psql's and SQLite's meta commands are the
// interactive shell's, not statements of a script or -e.
func metaOutsideShell(input, msg string) string {
	if !strings.HasPrefix(input, "\\") && !strings.HasPrefix(input, ".") || !strings.Contains(msg, "syntax error") {
		return "" // the shell's own errors for its commands are not syntax errors
	}
	return "meta commands such as \\dt and .tables work in the interactive shell (sluice sql on a terminal); in a script use SHOW TABLES, DESCRIBE t"
}

// Hinted is an error with the hint for it, for a caller that prints
// errors itself (the sluice command prints "hint: ..." on its own line).
type Hinted struct {
	Err  error
	Hint string
}

func (h *Hinted) Error() string { return h.Err.Error() }
func (h *Hinted) Unwrap() error { return h.Err }

// HintOf is err's hint, "" when it has none.
func HintOf(err error) string {
	var h *Hinted
	if errors.As(err, &h) {
		return h.Hint
	}
	return ""
}

// withHint attaches the hint for input's error, if any.
func withHint(input string, err error) error {
	if h := hint(input, err); h != "" {
		return &Hinted{Err: err, Hint: h}
	}
	return err
}
