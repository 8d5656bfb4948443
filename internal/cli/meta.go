package cli

import (
	"errors"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"sluice/internal/engine"
	"sluice/internal/expr/functions"
	"sluice/internal/sql"
)

// metaCommand is one of the shell's psql-style backslash or DuckDB and
// SQLite-style dot commands. They are built on the statements anyone can
// type (SHOW TABLES, DESCRIBE ...), so they work the same against a
// server (--server).
type metaCommand struct {
	names []string // every spelling; \? shows them all
	args  string   // the arguments' synopsis for \?
	help  string
	run   func(s *session, arg string) error
}

// metaCommands is the one table of them; \? prints it. It is filled in
// init because \? reads it.
var metaCommands []metaCommand

func init() {
	metaCommands = []metaCommand{
		{[]string{`\d`}, "[NAME]", "describe a table, view or stream (no NAME: all)", describeMeta},
		{[]string{`\dt`, ".tables"}, "[PATTERN]", "list tables", func(s *session, arg string) error { return s.listRelations(arg, kindTable) }},
		{[]string{`\dv`}, "[PATTERN]", "list materialized views and streams", func(s *session, arg string) error { return s.listRelations(arg, kindView|kindStream) }},
		{[]string{`\df`}, "[PATTERN]", "list functions (PATTERN may use * or %)", listFunctions},
		{[]string{`\l`, `\dn`, ".databases"}, "", "list databases", func(s *session, _ string) error { return s.runText("SHOW DATABASES") }},
		{[]string{`\c`, `\connect`}, "DB", "use database DB (USE DB)", useMeta},
		{[]string{".schema"}, "[NAME]", "print CREATE TABLE of NAME, or of every table", schemaMeta},
		{[]string{`\x`}, "[on|off]", "toggle expanded display: one block per row", func(s *session, arg string) error {
			return toggle(s, arg, &s.expanded, "Expanded display")
		}},
		{[]string{`\timing`}, "[on|off]", "toggle printing each statement's time", func(s *session, arg string) error {
			return toggle(s, arg, &s.timing, "Timing")
		}},
		{[]string{".timer"}, "on|off", "the same as \\timing", func(s *session, arg string) error {
			if arg == "" {
				return errors.New(".timer needs on or off")
			}
			return toggle(s, arg, &s.timing, "Timing")
		}},
		{[]string{".mode"}, "[" + strings.Join(FormatNames(), "|") + "]", "result format; without MODE print it", modeMeta},
		{[]string{`\o`, ".output"}, "[FILE]", "send results to FILE (no FILE: to stdout)", outputMeta},
		{[]string{`\i`, ".read"}, "FILE", "run the statements and commands of FILE", includeMeta},
		{[]string{`\ppl`}, "", "type PPL queries (source=t | where ... ;)", func(s *session, _ string) error { s.lang = LangPPL; return nil }},
		{[]string{`\sql`}, "", "type SQL statements again", func(s *session, _ string) error { s.lang = LangSQL; return nil }},
		{[]string{`\?`, `\h`, ".help"}, "", "this help", func(s *session, _ string) error { s.help(); return nil }},
		{[]string{`\q`, ".quit", ".exit"}, "", "leave the shell (also exit, quit, Ctrl-D)", func(s *session, _ string) error { s.quit = true; return nil }},
	}
}

// lookupMeta finds a command by any of its spellings.
func lookupMeta(name string) (*metaCommand, bool) {
	for i := range metaCommands {
		for _, n := range metaCommands[i].names {
			if n == name {
				return &metaCommands[i], true
			}
		}
	}
	return nil, false
}

// meta runs one meta-command line: the command, then its argument (the
// rest of the line, a trailing ';' dropped).
func (s *session) meta(line string) error {
	name, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	arg = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(arg), ";"))
	name = strings.TrimSuffix(name, ";")
	c, ok := lookupMeta(name)
	if !ok {
		return fmt.Errorf(`unknown command %s; \? lists the commands`, name)
	}
	return c.run(s, arg)
}

func (s *session) help() {
	var b strings.Builder
	b.WriteString("Statements end with ';' and may span lines: SHOW TABLES; DESCRIBE t; EXPLAIN SELECT ...;\n")
	b.WriteString("Commands, at the start of a line:\n")
	width := 0
	synopsis := make([]string, len(metaCommands))
	for i, c := range metaCommands {
		synopsis[i] = strings.Join(c.names, ", ")
		if c.args != "" {
			synopsis[i] += " " + c.args
		}
		width = max(width, len(synopsis[i]))
	}
	for i, c := range metaCommands {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, synopsis[i], c.help)
	}
	b.WriteString("Tab completes keywords, tables, columns, functions and option keys.\n")
	b.WriteString("Ctrl-C drops the current input or cancels a running statement.\n")
	fmt.Fprint(s.o.Stdout, b.String())
}

// message prints a command's own line ("Timing is on.") where statement
// messages go.
func (s *session) message(format string, args ...any) {
	fmt.Fprintf(s.output().msgs, format+"\n", args...)
}

func toggle(s *session, arg string, flag *bool, what string) error {
	switch strings.ToLower(arg) {
	case "":
		*flag = !*flag
	case "on":
		*flag = true
	case "off":
		*flag = false
	default:
		return fmt.Errorf("%s: want on or off, not %q", strings.ToLower(what), arg)
	}
	state := "off"
	if *flag {
		state = "on"
	}
	s.message("%s is %s.", what, state)
	return nil
}

// query runs one statement for a command and returns its result.
func (s *session) query(text string) (*engine.Result, error) {
	st, err := sql.ParseOne(text)
	if err != nil {
		return nil, err
	}
	sctx, stop := SignalContext(s.ctx, s.o.StopTimeout, os.Interrupt)
	defer stop()
	r, err := s.eng.ExecuteStatement(sctx, st)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// runText runs one statement for a command and prints its result.
func (s *session) runText(text string) error {
	s.runPieces([]piece{{text: text, line: 1, start: 1, col: 1}})
	return nil
}

func useMeta(s *session, arg string) error {
	if arg == "" {
		return errors.New(`\c needs a database name`)
	}
	return s.runText("USE " + arg)
}

// describeMeta is \d: DESCRIBE for a name (a table, else a materialized
// view, else a stream), the list of every relation without one.
func describeMeta(s *session, arg string) error {
	if arg == "" || strings.ContainsAny(arg, "*%") {
		return s.listRelations(arg, kindTable|kindView|kindStream)
	}
	var first error
	for _, q := range []string{"DESCRIBE ", "DESCRIBE MATERIALIZED VIEW ", "DESCRIBE STREAM "} {
		r, err := s.query(q + arg)
		if err == nil {
			return s.output().write(r)
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// The kinds of relation \d lists.
const (
	kindTable = 1 << iota
	kindView
	kindStream
)

// listRelations prints the tables, materialized views and streams of
// kinds whose name matches pattern ("" matches all): name, type and
// a detail (a table's connector, a view's or stream's state).
func (s *session) listRelations(pattern string, kinds int) error {
	lists := []struct {
		kind                 int
		stmt, typ, detailCol string
	}{
		{kindTable, "SHOW TABLES", "table", "using"},
		{kindView, "SHOW MATERIALIZED VIEWS", "materialized view", "state"},
		{kindStream, "SHOW STREAMS", "stream", "state"},
	}
	var rows [][]string
	for _, l := range lists {
		if kinds&l.kind == 0 {
			continue
		}
		r, err := s.query(l.stmt)
		if err != nil {
			return err
		}
		names, details := resultColumn(r, "name"), resultColumn(r, l.detailCol)
		for i, n := range names {
			if !matchPattern(pattern, n) {
				continue
			}
			d := ""
			if i < len(details) {
				d = details[i]
			}
			rows = append(rows, []string{n, l.typ, d})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	return s.output().write(engine.StringRows([]string{"name", "type", "detail"}, rows))
}

// matchPattern matches psql's patterns: * or % any run, ? or _ one
// character, case-insensitively; a pattern without those matches its
// name only. "" matches everything.
func matchPattern(pattern, name string) bool {
	if pattern == "" {
		return true
	}
	g := strings.NewReplacer("%", "*", "_", "?", "[", `\[`, `\`, `\\`).Replace(strings.ToLower(pattern))
	ok, err := path.Match(g, strings.ToLower(name))
	return err == nil && ok
}

// listFunctions is \df: the function registry of this binary (a server
// runs the same one), operators left out.
func listFunctions(s *session, pattern string) error {
	var rows [][]string
	for _, d := range functions.All() {
		if d.Operator {
			continue
		}
		match := matchPattern(pattern, d.Name)
		for _, a := range d.Aliases {
			match = match || matchPattern(pattern, a)
		}
		if !match {
			continue
		}
		rows = append(rows, []string{d.Name, string(d.Kind), arity(d.MinArgs, d.MaxArgs), strings.Join(d.Aliases, ", ")})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	return s.output().write(engine.StringRows([]string{"name", "kind", "arguments", "aliases"}, rows))
}

func arity(lo, hi int) string {
	switch {
	case hi < 0:
		return fmt.Sprintf("%d or more", lo)
	case lo == hi:
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// schemaMeta is .schema: SHOW CREATE TABLE of one table or of each, as
// statements one can run again.
func schemaMeta(s *session, arg string) error {
	names := []string{arg}
	if arg == "" {
		r, err := s.query("SHOW TABLES")
		if err != nil {
			return err
		}
		names = nil
		for _, n := range resultColumn(r, "name") {
			names = append(names, sql.QuoteName(n))
		}
	}
	var b strings.Builder
	for _, n := range names {
		r, err := s.query("SHOW CREATE TABLE " + n)
		if err != nil {
			return err
		}
		for _, stmt := range resultColumn(r, "createtab_stmt") {
			b.WriteString(strings.TrimSuffix(stmt, ";") + ";\n")
		}
	}
	_, err := fmt.Fprint(s.rows, b.String())
	return err
}

func modeMeta(s *session, arg string) error {
	if arg == "" {
		s.message("%s", s.mode)
		return nil
	}
	f, err := NewFormatter(arg)
	if err != nil {
		return err
	}
	s.f, s.mode = f, strings.ToLower(arg)
	return nil
}

// outputMeta is \o: results to a file (created or truncated), or back to
// stdout.
func outputMeta(s *session, arg string) error {
	if err := s.closeOut(); err != nil {
		return fmt.Errorf("closing output: %w", err)
	}
	if arg == "" {
		return nil
	}
	f, err := os.OpenFile(arg, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	s.outFile, s.rows = f, f
	return nil
}

// maxIncludeDepth stops a script that includes itself.
const maxIncludeDepth = 16

// includeMeta is \i: every line of the file as if typed, commands
// included; a last statement may go without its ';', as in psql -f.
func includeMeta(s *session, arg string) error {
	if arg == "" {
		return errors.New(`\i needs a file name`)
	}
	if s.depth >= maxIncludeDepth {
		return fmt.Errorf(`\i %s: scripts nested deeper than %d`, arg, maxIncludeDepth)
	}
	b, err := os.ReadFile(arg)
	if err != nil {
		return err
	}
	saved := s.lines
	s.lines = nil
	s.depth++
	defer func() { s.depth--; s.lines = saved }()
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if s.quit {
			return nil
		}
		s.feed(strings.TrimSuffix(line, "\r"))
	}
	if len(s.lines) > 0 {
		pieces, unfinished := splitPieces(strings.Join(s.lines, "\n")+"\n;", 1)
		if unfinished {
			return fmt.Errorf("%s: unterminated quote or comment after the last statement", arg)
		}
		s.runPieces(pieces)
	}
	return nil
}
