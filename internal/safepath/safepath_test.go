package safepath

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"http_logs", true},
		{"errors_5m", true},
		{"a.b", true},
		{"café", true},
		{"with space", true},
		{"", false},
		{".", false},
		{"..", false},
		{"../..", false},
		{"../../x", false},
		{"a/b", false},
		{`a\b`, false},
		{"a..b", false},
		{"a\x00b", false},
		{"a\nb", false},
		{"a\x7fb", false},
		{"\xff", false},
	} {
		err := CheckName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("CheckName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrBadName) {
			t.Errorf("CheckName(%q) error %v does not wrap ErrBadName", tc.name, err)
		}
	}
}

func TestJoin(t *testing.T) {
	root := t.TempDir()
	p, err := Join(root, "indexes", "logs")
	if err != nil || p != filepath.Join(root, "indexes", "logs") {
		t.Fatalf("Join = %q, %v", p, err)
	}
	for _, elems := range [][]string{{".."}, {"indexes", "../.."}, {"../../x"}, {"a/../../b"}, {"."}, {}} {
		if p, err := Join(root, elems...); err == nil || !errors.Is(err, ErrEscapes) {
			t.Errorf("Join(%q) = %q, %v; want ErrEscapes", elems, p, err)
		}
	}
	if _, err := Join("", "x"); err == nil {
		t.Error("Join with no root succeeded")
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		root, p string
		ok      bool
	}{
		{"/data", "/data/x", true},
		{"/data", "/data/x/y", true},
		{"/data", "/data", false},
		{"/data", "/", false},
		{"/data", "/datax", false},
		{"/data", "/data/../etc", false},
		{"/data", "/data/..x", true},
	} {
		if got := Within(tc.root, tc.p); got != tc.ok {
			t.Errorf("Within(%q, %q) = %v, want %v", tc.root, tc.p, got, tc.ok)
		}
	}
}

// FuzzJoin checks the one promise that matters: whatever the names, a
// joined path that Join accepts is strictly inside the root, and a name
// CheckName accepts joins.
func FuzzJoin(f *testing.F) {
	for _, s := range []string{"x", "..", "../..", "a/b", "a\x00", ".", "", "a..b", `..\x`, "\u202e", "x/../.."} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, name string) {
		p, err := Join(root, "indexes", name)
		nameErr := CheckName(name)
		if (err == nil) != (nameErr == nil) {
			t.Fatalf("Join(%q) err=%v but CheckName err=%v", name, err, nameErr)
		}
		if err != nil {
			return
		}
		if !Within(root, p) || !strings.HasPrefix(p, filepath.Join(root, "indexes")+string(filepath.Separator)) {
			t.Fatalf("Join(%q) = %q escapes %q", name, p, root)
		}
		if filepath.Base(p) != name {
			t.Fatalf("Join(%q) = %q: the name did not stay one segment", name, p)
		}
	})
}
