package functions

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateCoverage = flag.Bool("update", false, "rewrite the Spark function table in docs/sql.md")

// syntaxForms are Spark function names that Sluice's parser turns into
// something other than a registry call (CAST, CASE WHEN, IN lists, and
// the higher-order functions, whose lambdas the binder binds and
// expr.HigherOrder evaluates), or that the binder handles in GROUP BY
// (session_window, grouping, grouping_id).
var syntaxForms = map[string]string{
	"cast":             "CAST(x AS type)",
	"when":             "CASE WHEN",
	"in":               "x IN (...)",
	"transform":        "lambda",
	"filter":           "lambda",
	"exists":           "lambda",
	"forall":           "lambda",
	"aggregate":        "lambda",
	"reduce":           "lambda",
	"zip_with":         "lambda",
	"map_filter":       "lambda",
	"transform_values": "lambda",
	"transform_keys":   "lambda",
	"map_zip_with":     "lambda",
	"collate":          "s COLLATE name",
	"session_window":   "GROUP BY session window",
	"grouping":         "GROUP BY grouping sets",
	"grouping_id":      "GROUP BY grouping sets",
}

const (
	coverageBegin = "<!-- spark-functions:begin (go test ./internal/expr/functions -run TestSparkCoverage -update) -->"
	coverageEnd   = "<!-- spark-functions:end -->"
)

// sparkCoverage renders the table of docs/sql.md from the Spark name list
// and the registry, so the doc cannot claim a function Lookup lacks.
func sparkCoverage(t *testing.T) string {
	f, err := os.Open(filepath.Join("testdata", "spark_functions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []string
	var total, excluded, supported int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		total++
		name, reason, isExcluded := strings.Cut(line, ": ")
		status := "no"
		switch {
		case isExcluded:
			excluded++
			status = "excluded: " + reason
		case syntaxForms[name] != "":
			supported++
			status = "yes (" + syntaxForms[name] + ")"
		default:
			if d, ok := Lookup(name); ok && d.Kind != Window {
				supported++
				status = "yes"
			}
		}
		rows = append(rows, fmt.Sprintf("| `%s` | %s |", strings.ReplaceAll(name, "|", `\|`), status))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	denom := total - excluded
	var b strings.Builder
	b.WriteString(coverageBegin + "\n")
	fmt.Fprintf(&b, "Sluice supports %d of the %d Spark built-in functions that apply to it (%.1f%%); %d more of Spark's %d names are excluded below because they cannot apply (JVM reflection, HDFS blocks, VARIANT, XML, TIME, geospatial, and sketches and vector functions added to Spark after 4.0).\n\n",
		supported, denom, 100*float64(supported)/float64(denom), excluded, total)
	b.WriteString("| function | Sluice |\n|---|---|\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	b.WriteString(coverageEnd)
	return b.String()
}

// TestSparkCoverage checks docs/sql.md's Spark function table against the
// registry: every name marked yes resolves, every name marked no does not,
// and the count is right. -update rewrites the table.
func TestSparkCoverage(t *testing.T) {
	path := filepath.Join("..", "..", "..", "docs", "sql.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := sparkCoverage(t)
	text := string(doc)
	i, j := strings.Index(text, coverageBegin), strings.Index(text, coverageEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no Spark function table between %q and %q", path, coverageBegin, coverageEnd)
	}
	got := text[i : j+len(coverageEnd)]
	if got == want {
		return
	}
	if *updateCoverage {
		if err := os.WriteFile(path, []byte(text[:i]+want+text[j+len(coverageEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for k := 0; k < min(len(gl), len(wl)); k++ {
		if gl[k] != wl[k] {
			t.Fatalf("docs/sql.md function table is stale (rerun with -update); first difference:\n doc: %s\n want: %s", gl[k], wl[k])
		}
	}
	t.Fatalf("docs/sql.md function table is stale (rerun with -update): %d lines, want %d", len(gl), len(wl))
}
