package storage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveLocal(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "logs", "year=2026"), 0o755)
	os.WriteFile(filepath.Join(dir, "logs", "a.json"), []byte("{}"), 0o644)
	logs := filepath.Join(dir, "logs")
	t.Chdir(dir)
	t.Setenv("HOME", dir)

	cases := []struct {
		in         string
		root, pref string
	}{
		{logs, logs, ""},
		{logs + "/", logs, ""},
		{logs + "/a.json", logs, "a.json"},
		{logs + "/*.json", logs, "*.json"},
		{logs + "/*/x*.json.gz", logs, "*/x*.json.gz"},
		{logs + "/year=2026/", filepath.Join(logs, "year=2026"), ""},
		{logs + "/year=2027/", logs, "year=2027/"},
		{logs + "/year=2027/month=01/*.json", logs, "year=2027/month=01/*.json"},
		{logs + "/a.json/under", logs, "a.json/under"},
		{logs + "/y[0-9]*/", logs, "y[0-9]*/"},
		{"file://" + logs + "/a.json", logs, "a.json"},
		{"file://localhost" + logs + "/", logs, ""},
		{"file:" + logs, logs, ""},
		// Relative forms resolve against the working directory (dir).
		{"logs/a.json", logs, "a.json"},
		{"./logs/", logs, ""},
		{"file://logs/*.json", logs, "*.json"},
		{"file:logs", logs, ""},
		{".", dir, ""},
		{"new/dir/", dir, "new/dir/"},
		{"~/logs/*.json", logs, "*.json"},
	}
	for _, c := range cases {
		st, prefix, err := Resolve(context.Background(), c.in, Options{})
		if err != nil {
			t.Errorf("Resolve(%q): %v", c.in, err)
			continue
		}
		ls, ok := st.(*LocalStore)
		if !ok {
			t.Errorf("Resolve(%q) = %T, want *LocalStore", c.in, st)
			continue
		}
		// TempDir may sit behind a symlink (macOS /var); compare as given.
		if ls.Root() != c.root || prefix != c.pref {
			t.Errorf("Resolve(%q) = (%q, %q), want (%q, %q)", c.in, ls.Root(), prefix, c.root, c.pref)
		}
	}
}

func TestResolveSchemes(t *testing.T) {
	ctx := context.Background()
	st, prefix, err := Resolve(ctx, "mem://shared/a/b/", Options{})
	if err != nil || prefix != "a/b/" || st != NamedMemStore("shared") {
		t.Fatalf("mem: %v %q %v", st, prefix, err)
	}
	DropMemStore("shared")
	if NamedMemStore("shared") == st {
		t.Fatal("DropMemStore kept the store")
	}
	for _, bad := range []string{"", "gs://bucket/x", "http://host/x", "mem://", "s3://", "ftp:thing"} {
		if _, _, err := Resolve(ctx, bad, Options{}); err == nil {
			t.Errorf("Resolve(%q) succeeded", bad)
		}
	}
}

func TestGlobPrefix(t *testing.T) {
	for in, want := range map[string]string{
		"logs/2026-*/part-*.json": "logs/2026-",
		"logs/":                   "logs/",
		"a?b":                     "a",
		"[ab]/x":                  "",
		"":                        "",
	} {
		if got := GlobPrefix(in); got != want {
			t.Errorf("GlobPrefix(%q) = %q, want %q", in, got, want)
		}
		if IsGlob(in) != strings.ContainsAny(in, "*?[") {
			t.Errorf("IsGlob(%q) wrong", in)
		}
	}
}
