package slt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/engine"
)

// counter records the statements it ran, so a test can tell which
// executor ran what around a restart.
type counter struct{ seen []string }

func (c *counter) Execute(_ context.Context, sql string) ([]*engine.Result, error) {
	c.seen = append(c.seen, sql)
	return []*engine.Result{{Message: "ok"}}, nil
}

const streamingScript = `write in/a.json
{"path": "${TMPDIR}/x"}
{"b": 2}

write in/sub/empty.json

statement ok
INSERT STREAM INTO out SELECT * FROM src

restart

statement ok
SELECT 2
`

func TestParseWriteRestart(t *testing.T) {
	s, err := Parse("s.slt", streamingScript)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Records) != 5 {
		t.Fatalf("got %d records", len(s.Records))
	}
	w := s.Records[0]
	if w.Kind != Write || w.Path != "in/a.json" || w.SQL != "{\"path\": \"${TMPDIR}/x\"}\n{\"b\": 2}\n" {
		t.Fatalf("write: %+v", w)
	}
	if e := s.Records[1]; e.Kind != Write || e.SQL != "" || e.Line != 5 {
		t.Fatalf("empty write: %+v", e)
	}
	if r := s.Records[3]; r.Kind != Restart || r.Line != 10 {
		t.Fatalf("restart: %+v", r)
	}
	bad := map[string]string{
		"write /etc/passwd\nx\n": "must stay inside",
		"write ../up.json\nx\n":  "must stay inside",
		"write a/../../b\nx\n":   "must stay inside",
		"write\nx\n":             "one relative path",
		"restart now\n":          `unexpected "now" after restart`,
		"restart\nSELECT 1\n":    "restart takes no body",
	}
	for text, want := range bad {
		if _, err := Parse("p.slt", text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", text, err, want)
		}
	}
}

// TestRunWriteRestart: write lands files under TMPDIR with variables
// substituted; restart swaps in the executor the hook returns, and is a
// no-op without one.
func TestRunWriteRestart(t *testing.T) {
	s, err := Parse("s.slt", streamingScript)
	if err != nil {
		t.Fatal(err)
	}
	for _, withHook := range []bool{false, true} {
		tmp := t.TempDir()
		first, second := &counter{}, &counter{}
		r := &Runner{Exec: first, Vars: map[string]string{"TMPDIR": tmp}}
		restarts := 0
		if withHook {
			r.Restart = func() (Executor, error) { restarts++; return second, nil }
		}
		out := r.Run(context.Background(), s)
		for _, f := range out.Failures {
			t.Error(f.Error())
		}
		got, err := os.ReadFile(filepath.Join(tmp, "in", "a.json"))
		if err != nil || string(got) != "{\"path\": \""+tmp+"/x\"}\n{\"b\": 2}\n" {
			t.Fatalf("a.json: %q %v", got, err)
		}
		if fi, err := os.Stat(filepath.Join(tmp, "in", "sub", "empty.json")); err != nil || fi.Size() != 0 {
			t.Fatalf("empty.json: %v %v", fi, err)
		}
		if _, err := os.Stat(filepath.Join(tmp, ".slt-write.tmp")); !os.IsNotExist(err) {
			t.Errorf("the temporary file was left behind: %v", err)
		}
		wantFirst, wantSecond := 2, 0
		if withHook {
			wantFirst, wantSecond = 1, 1
		}
		if len(first.seen) != wantFirst || len(second.seen) != wantSecond || restarts != len(second.seen) {
			t.Errorf("hook=%v: first ran %v, second %v, %d restarts", withHook, first.seen, second.seen, restarts)
		}
		if out.Ran != 5 || len(out.Actual) != 5 {
			t.Errorf("ran %d, %d actuals", out.Ran, len(out.Actual))
		}
	}
}

func TestQueryLinesFilter(t *testing.T) {
	s, err := Parse("x.slt", "query IT rowsort lines ^(1|NULL) \nSELECT a, b FROM t\n----\n1 | (empty)\nNULL | NULL\n")
	if err != nil {
		t.Fatal(err)
	}
	if out := newRunner(t).Run(context.Background(), s); len(out.Failures) != 0 {
		t.Fatalf("failures: %v", out.Failures)
	}
	// -update keeps the sort mode and the filter when it fixes the types.
	s, _ = Parse("x.slt", "query II rowsort lines ^2\nSELECT a, b FROM t\n----\n2 | x\n")
	out := newRunner(t).Run(context.Background(), s)
	if want := "query IT rowsort lines ^2\nSELECT a, b FROM t\n----\n2 | x\n"; out.Updated != want {
		t.Fatalf("updated:\n%s\nwant:\n%s", out.Updated, want)
	}
	for text, want := range map[string]string{
		"query I lines\nSELECT 1\n":            "want lines <regexp>",
		"query I rowsort extra\nSELECT 1\n":    `unexpected "extra"`,
		"query I lines (\nSELECT 1\n":          "lines: error parsing regexp",
		"query I sideways lines x\nSELECT 1\n": "unknown sort mode",
	} {
		if _, err := Parse("p.slt", text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", text, err, want)
		}
	}
}

// TestSamePasses: records that did the same in both passes pass; one
// whose rows or error differ fails with a diff naming its line.
func TestSamePasses(t *testing.T) {
	s, err := Parse("s.slt", "statement ok\nSELECT 1\n\nquery I\nSELECT 2\n----\n2\n")
	if err != nil {
		t.Fatal(err)
	}
	a := &Outcome{Actual: []string{"ok", "I\n2"}}
	if f := SamePasses(s, a, &Outcome{Actual: []string{"ok", "I\n2"}}); len(f) != 0 {
		t.Fatalf("equal passes: %v", f)
	}
	f := SamePasses(s, a, &Outcome{Actual: []string{"error: boom", "I\n2\n3"}})
	if len(f) != 2 || f[0].Line != 1 || !strings.Contains(f[1].Error(), "s.slt:4: the restart pass differs") || !strings.Contains(f[1].Msg, "+ 3") {
		t.Fatalf("got %v", f)
	}
}
