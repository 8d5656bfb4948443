package slt

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/engine"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// Executor runs SQL; *engine.Engine is one. Execute runs every
// statement of script in order and stops at the first error, returning
// the results before it.
type Executor interface {
	Execute(ctx context.Context, script string) ([]*engine.Result, error)
}

var _ Executor = (*engine.Engine)(nil)

// Runner runs scripts against one Executor.
type Runner struct {
	Exec Executor
	// Vars are the ${NAME} substitutions (TESTDATA, TMPDIR), applied to
	// SQL and, reversed, to actual output. Write records land files
	// under Vars["TMPDIR"].
	Vars map[string]string
	// Restart, when set, is called at each restart record: it drops the
	// current executor and returns a fresh one over the same data
	// directory, as a process restarted after a crash would. When nil,
	// restart records do nothing (the straight pass).
	Restart func() (Executor, error)
}

// Failure is one record that did not do what the file expects.
type Failure struct {
	File string
	Line int
	SQL  string
	Msg  string // what went wrong, with a diff for result mismatches
	// Fixed says Outcome.Updated makes this record pass: the expected
	// rows, column types or error pattern were all that was wrong.
	Fixed bool
}

func (f Failure) Error() string {
	return fmt.Sprintf("%s:%d: %s\n%s", f.File, f.Line, f.Msg, indent(f.SQL))
}

// Outcome is the result of running a script.
type Outcome struct {
	Failures []Failure
	// Updated is the script with expected results, column types and
	// error patterns replaced by what the engine did; Changed says
	// whether it differs from the original.
	Updated string
	Changed bool
	// Ran counts the records executed.
	Ran int
	// Actual holds, per record of the script, what it did as text
	// (rows, error, "ok"), with variables written back: two runs of one
	// script did the same thing when their Actual are equal.
	Actual []string
}

// SamePasses compares two runs of one script record by record (a
// straight pass and a restart pass) and returns a failure for each
// record that did something different in the second.
func SamePasses(s *Script, first, second *Outcome) []Failure {
	var out []Failure
	for i, rec := range s.Records {
		if i >= len(first.Actual) || i >= len(second.Actual) || first.Actual[i] == second.Actual[i] {
			continue
		}
		out = append(out, Failure{File: s.Name, Line: rec.Line, SQL: rec.SQL,
			Msg: "the restart pass differs from the straight pass (- straight, + restart):\n" +
				diff(strings.Split(first.Actual[i], "\n"), strings.Split(second.Actual[i], "\n"))})
	}
	return out
}

// edit replaces lines [from, to) of the script with text.
type edit struct {
	from, to int
	text     []string
}

// Run executes every record in order. It keeps going after a failure so
// one run reports (and -update fixes) everything.
func (r *Runner) Run(ctx context.Context, s *Script) *Outcome {
	out := &Outcome{}
	var edits []edit
	for _, rec := range s.Records {
		msg, e, actual := r.runRecord(ctx, rec)
		out.Ran++
		out.Actual = append(out.Actual, actual)
		if msg != "" {
			out.Failures = append(out.Failures, Failure{File: s.Name, Line: rec.Line, SQL: rec.SQL, Msg: msg, Fixed: len(e) > 0})
		}
		edits = append(edits, e...)
	}
	lines := append([]string(nil), s.lines...)
	// Apply bottom-up so earlier line numbers stay valid.
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	for _, e := range edits {
		lines = append(lines[:e.from], append(append([]string(nil), e.text...), lines[e.to:]...)...)
	}
	out.Updated = strings.Join(lines, "\n")
	out.Changed = out.Updated != strings.Join(s.lines, "\n")
	return out
}

// runRecord returns a failure message ("" when the record passed), the
// edits that would make it pass, and what the record did as text.
func (r *Runner) runRecord(ctx context.Context, rec *Record) (string, []edit, string) {
	switch rec.Kind {
	case Write:
		if err := r.write(rec); err != nil {
			return err.Error(), nil, "error: " + err.Error()
		}
		return "", nil, "ok"
	case Restart:
		if r.Restart == nil {
			return "", nil, "ok"
		}
		ex, err := r.Restart()
		if err != nil {
			msg := "restart failed: " + r.unsubstitute(err.Error())
			return msg, nil, "error: " + msg
		}
		r.Exec = ex
		return "", nil, "ok"
	}
	text := r.substitute(rec.SQL)
	if rec.PPL {
		text = "PPL " + sql.QuoteString(text)
	}
	results, err := r.Exec.Execute(ctx, text)
	actual := "ok"
	if err != nil {
		actual = "error: " + r.unsubstitute(err.Error())
	}
	if rec.Kind == Statement {
		switch {
		case !rec.WantError && err != nil:
			return "statement failed: " + r.unsubstitute(err.Error()), nil, actual
		case rec.WantError && err == nil:
			return "statement succeeded, expected an error", nil, actual
		case rec.WantError && !r.errorMatches(rec.ErrorPattern, err.Error()):
			got := r.unsubstitute(firstLine(err.Error()))
			return fmt.Sprintf("error %q does not match %q", r.unsubstitute(err.Error()), rec.ErrorPattern),
				[]edit{{rec.header, rec.header + 1, []string{"statement error " + got}}}, actual
		}
		return "", nil, actual
	}

	if err != nil {
		return "query failed: " + r.unsubstitute(err.Error()), nil, actual
	}
	var res *engine.Result
	for _, x := range results {
		if x.Schema != nil {
			res = x
		}
	}
	if res == nil {
		return "query returned no rows", nil, "no rows"
	}
	var msgs []string
	var edits []edit
	if rec.Sort != Explain {
		got := typeLetters(res.Schema)
		if !typesMatch(rec.Types, got) {
			msgs = append(msgs, fmt.Sprintf("column types: got %s, want %s", got, rec.Types))
			header := "query " + got
			if f := strings.Fields(rec.head); len(f) > 2 {
				// Keep the sort mode and lines filter as written.
				_, tail, _ := strings.Cut(strings.TrimSpace(rec.head)[len("query"):], f[1])
				header += tail
			}
			edits = append(edits, edit{rec.header, rec.header + 1, []string{header}})
		}
	}
	lines := r.resultLines(res, rec.Sort)
	if rec.Lines != nil {
		kept := lines[:0]
		for _, l := range lines {
			if rec.Lines.MatchString(l) {
				kept = append(kept, l)
			}
		}
		lines = kept
	}
	if !equalLines(rec.Expected, lines) {
		msgs = append(msgs, "result mismatch (- expected, + actual):\n"+diff(rec.Expected, lines))
		if rec.resStart >= 0 {
			edits = append(edits, edit{rec.resStart, rec.resEnd, lines})
		} else {
			edits = append(edits, edit{rec.sqlEnd, rec.sqlEnd, append([]string{"----"}, lines...)})
		}
	}
	return strings.Join(msgs, "\n"), edits, strings.Join(append([]string{typeLetters(res.Schema)}, lines...), "\n")
}

// write lands a write record's file under ${TMPDIR}, creating folders.
// The content goes to a temporary name first and is renamed into place,
// so a source listing the folder never sees half a file.
func (r *Runner) write(rec *Record) error {
	dir := r.Vars["TMPDIR"]
	if dir == "" {
		return fmt.Errorf("write %s: the runner has no TMPDIR", rec.Path)
	}
	path := filepath.Join(dir, filepath.FromSlash(rec.Path))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", rec.Path, err)
	}
	tmp := filepath.Join(dir, ".slt-write.tmp")
	if err := os.WriteFile(tmp, []byte(r.substitute(rec.SQL)), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", rec.Path, err)
	}
	// The modification time is the record's line after a fixed instant:
	// files still land in order, and both passes of a streaming file see
	// the same ETags (size and mtime), so errors naming a split agree.
	mtime := writeEpoch.Add(time.Duration(rec.Line) * time.Second)
	if err := os.Chtimes(tmp, mtime, mtime); err != nil {
		return fmt.Errorf("write %s: %w", rec.Path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", rec.Path, err)
	}
	return nil
}

// writeEpoch is the modification time of a write record at line 0.
var writeEpoch = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// errorMatches is a substring test, then a regexp test.
func (r *Runner) errorMatches(pattern, msg string) bool {
	if pattern == "" {
		return true
	}
	for _, m := range []string{msg, r.unsubstitute(msg)} {
		if strings.Contains(m, pattern) {
			return true
		}
		if re, err := regexp.Compile(pattern); err == nil && re.MatchString(m) {
			return true
		}
	}
	return false
}

func (r *Runner) substitute(s string) string {
	for k, v := range r.Vars {
		s = strings.ReplaceAll(s, "${"+k+"}", v)
	}
	return s
}

// unsubstitute writes variable values back as ${NAME}, longest value
// first so a TMPDIR inside TESTDATA (or the reverse) is named right.
func (r *Runner) unsubstitute(s string) string {
	keys := make([]string, 0, len(r.Vars))
	for k, v := range r.Vars {
		if v != "" {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return len(r.Vars[keys[i]]) > len(r.Vars[keys[j]]) })
	for _, k := range keys {
		s = strings.ReplaceAll(s, r.Vars[k], "${"+k+"}")
	}
	return s
}

// resultLines renders a result the way the file spells it.
func (r *Runner) resultLines(res *engine.Result, mode string) []string {
	var rows [][]string
	for _, b := range res.Batches {
		if b == nil {
			continue
		}
		for i := 0; i < int(b.NumRows()); i++ {
			row := make([]string, b.NumCols())
			for j := range row {
				if mode == Explain {
					row[j], _ = types.Text(b.Column(j), i)
				} else {
					row[j] = r.unsubstitute(Value(b.Column(j), i))
				}
			}
			rows = append(rows, row)
		}
	}
	var lines []string
	switch mode {
	case Explain:
		for _, row := range rows {
			for _, v := range row {
				for _, l := range strings.Split(r.unsubstitute(v), "\n") {
					if l = strings.TrimRight(l, " \t\r"); l != "" {
						lines = append(lines, l)
					}
				}
			}
		}
	case ValueSort:
		for _, row := range rows {
			lines = append(lines, row...)
		}
		sort.Strings(lines)
	default:
		for _, row := range rows {
			lines = append(lines, strings.TrimRight(strings.Join(row, " | "), " "))
		}
		if mode == RowSort {
			sort.Strings(lines)
		}
	}
	return lines
}

// Value renders one value as the .slt format spells it (see the package
// documentation).
func Value(arr arrow.Array, i int) string {
	if types.IsNull(arr, i) {
		return "NULL"
	}
	var f float64
	switch a := arr.(type) {
	case *array.Float64:
		f = a.Value(i)
	case *array.Float32:
		f = float64(a.Value(i))
	default:
		s, _ := types.Text(arr, i)
		if s == "" {
			return "(empty)"
		}
		return strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		s, _ := types.Text(arr, i)
		return s
	}
	// Round to 12 significant digits so parallel sums that differ in the
	// last bits print the same.
	f, _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', 12, 64), 64)
	return types.FormatDouble(f)
}

// typeLetters maps a schema to the file's column letters.
func typeLetters(s *arrow.Schema) string {
	var b strings.Builder
	for _, f := range s.Fields() {
		t := f.Type
		if d, ok := t.(*arrow.DictionaryType); ok {
			t = d.ValueType
		}
		switch {
		case types.IsInteger(t):
			b.WriteByte('I')
		case types.IsNumeric(t) || t.ID() == arrow.DECIMAL256:
			b.WriteByte('R')
		case types.IsString(t):
			b.WriteByte('T')
		case t.ID() == arrow.BOOL:
			b.WriteByte('B')
		case types.IsTemporal(t):
			b.WriteByte('D')
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

func typesMatch(want, got string) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i] != '?' && want[i] != got[i] {
			return false
		}
	}
	return true
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.TrimRight(a[i], " ") != strings.TrimRight(b[i], " ") {
			return false
		}
	}
	return true
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
