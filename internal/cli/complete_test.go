package cli

import (
	"context"
	"slices"
	"strings"
	"testing"

	"sluice/internal/engine"
)

func TestCompleterDo(t *testing.T) {
	exec := &scripted{answers: map[string]*engine.Result{
		"SHOW TABLES":      engine.StringRows([]string{"name", "using", "location"}, [][]string{{"logs", "json", ""}, {"logins", "csv", ""}, {"users", "json", ""}}),
		"DESCRIBE logs":    engine.StringRows([]string{"col_name", "data_type", "comment"}, [][]string{{"status", "INT", ""}, {"path", "STRING", ""}}),
		"DESCRIBE users":   engine.StringRows([]string{"col_name", "data_type", "comment"}, [][]string{{"name", "STRING", ""}, {"# Comment", "x", ""}}),
		"DESCRIBE logins":  engine.StringRows([]string{"col_name", "data_type", "comment"}, [][]string{{"stamp", "TIMESTAMP", ""}}),
		"DESCRIBE nothing": {},
	}}
	c := &completer{eng: exec, ctx: context.Background()}
	tests := []struct {
		line string
		want []string // the endings, sorted
	}{
		{"SELECT * FROM lo", []string{"gins ", "gs "}},
		{"SELECT * FROM logs JOIN us", []string{"ers "}},
		{"sel", []string{"ect "}},
		{"SEL", []string{"ECT "}},
		{"SELECT uppe", []string{"r("}},
		{"SELECT statu", []string{"s"}},             // logs' column (the line names no table: every table's)
		{"SELECT stam| FROM logins", []string{"p"}}, // only logins' columns
		{"SELECT statu| FROM logins", nil},
		{"SELECT logs.pa", []string{"th"}},
		{"SELECT users.", []string{"name"}},
		{`\d`, []string{" ", "f ", "n ", "t ", "v "}},
		{`\ti`, []string{"ming "}},
		{`.sc`, []string{"hema "}},
		{`\d us`, []string{"ers "}},
		{`\df count_m`, []string{"in_sketch("}},
		{"CREATE TABLE t USING csv OPTIONS (delim", []string{"iter "}},
		{"CREATE TABLE t USING csv OPTIONS (header 'true', delim", []string{"iter "}},
		{"CREATE TABLE t USING csv OPTIONS (header 'tr", nil},
		{"INSERT STREAM INTO t SELECT * FROM s WITH (trig", []string{"ger "}},
		{"SELECT zzz", nil},
	}
	for _, tt := range tests {
		line, rest, _ := strings.Cut(tt.line, "|")
		got, n := c.Do([]rune(line+rest), len([]rune(line)))
		var ends []string
		for _, g := range got {
			ends = append(ends, string(g))
		}
		if !slices.Equal(ends, tt.want) {
			t.Errorf("Do(%q) = %q, want %q", tt.line, ends, tt.want)
		}
		word := line[strings.LastIndexAny(line, " (.\\,")+1:]
		if n != len(word) && len(tt.want) > 0 {
			t.Errorf("Do(%q) length %d, want %d", tt.line, n, len(word))
		}
	}
	// The listing is reused: one SHOW TABLES for every Tab above.
	if n := strings.Count(strings.Join(exec.ran, "|"), "SHOW TABLES"); n != 1 {
		t.Errorf("ran SHOW TABLES %d times: %q", n, exec.ran)
	}
}
