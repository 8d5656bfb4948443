package job

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/sql.md's option tables")

// TestDocsCurrent fails when docs/sql.md's option tables are not what
// Options prints (go test ./internal/job -update rewrites them).
func TestDocsCurrent(t *testing.T) {
	const path = "../../docs/sql.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, k := range Kinds {
		if !strings.Contains(doc, docMarker(k)) {
			t.Errorf("docs/sql.md has no option table of a %s (marker %q)", k, strings.TrimSpace(docMarker(k)))
		}
	}
	want := UpdateDoc(doc)
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != doc {
		t.Error("docs/sql.md's option tables are stale: run go test ./internal/job -update")
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		kind Kind
		opts map[string]string
		want string // "" for no error
	}{
		{Stream, map[string]string{"trigger": "once", "workers": "2"}, ""},
		{Stream, map[string]string{"max_files_per_trigger": "1"}, ""},
		{Stream, map[string]string{"trigerr": "once"}, `unknown option "trigerr" for a stream; did you mean "trigger"?`},
		{Stream, map[string]string{"auto_refresh": "true"}, `unknown option "auto_refresh" for a stream`},
		{View, map[string]string{"auto_refresh": "maybe"}, `auto_refresh: "maybe" is not a boolean`},
		{View, map[string]string{"auto_refresh": "ON", "refresh_interval": "1 minute"}, ""},
		{View, map[string]string{"refresh_interval": "soon"}, "refresh_interval:"},
		{Stream, map[string]string{"workers": "0"}, `workers: "0": want a number from 1 to 1024`},
		{Stream, map[string]string{"partitions": "5000"}, `partitions: "5000": want a number from 1 to 4096`},
		{Skipping, map[string]string{"output_mode": "append"}, `unknown option "output_mode" for a skipping index`},
		{View, map[string]string{"scheduler_mode": "cron"}, `scheduler_mode: "cron" is not internal, external`},
		{View, map[string]string{"zzz_secret": "hunter2"}, `unknown option "zzz_secret"`},
	} {
		err := Check(c.kind, c.opts, "for a "+c.kind.String(), []string{"max_files_per_trigger"})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v %v: %v", c.kind, c.opts, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v %v: error %v, want %q", c.kind, c.opts, err, c.want)
		case err != nil && strings.Contains(err.Error(), "hunter2"):
			t.Errorf("the error shows a value: %v", err)
		}
	}
}

// TestOptionsTable: every option has a doc line, a kind, and one entry.
func TestOptionsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range Options {
		if seen[o.Key] {
			t.Errorf("%s listed twice", o.Key)
		}
		seen[o.Key] = true
		if o.Doc == "" || o.For == 0 {
			t.Errorf("%s: no doc line or no kind", o.Key)
		}
		if o.Type == Enum && len(o.Values) == 0 {
			t.Errorf("%s: an enum without values", o.Key)
		}
		if o.Default != "" {
			if err := o.check(o.Default); err != nil {
				t.Errorf("%s: default %q: %v", o.Key, o.Default, err)
			}
		}
	}
}
