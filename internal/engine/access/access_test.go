package access

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLocationsContains: prefixes match at path boundaries only, after
// cleaning; ".." cannot climb out, a symbolic link pointing outside does
// not count as inside, and an object-store path with ".." is inside none.
func TestLocationsContains(t *testing.T) {
	dir := t.TempDir()
	allowed := filepath.Join(dir, "allowed")
	if err := os.MkdirAll(filepath.Join(allowed, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(allowed, "etc")); err != nil {
		t.Fatal(err)
	}
	ls, err := ParseLocations([]string{allowed, "s3://bucket/logs/"})
	if err != nil {
		t.Fatal(err)
	}
	for loc, want := range map[string]bool{
		allowed:                                     true,
		allowed + "/sub/a.json":                     true,
		allowed + "/new/*.json":                     true,
		"file://" + allowed + "/sub":                true,
		allowed + "2/a.json":                        false,
		allowed + "/../a.json":                      false,
		allowed + "/sub/../../a.json":               false,
		allowed + "/etc/passwd":                     false, // the link points outside
		"/etc/passwd":                               false,
		"s3://bucket/logs":                          true,
		"s3://bucket/logs/2024/a.json":              true,
		"s3a://bucket/logs/a.json":                  true,
		"s3://bucket/logs2/a.json":                  false,
		"s3://bucket/logs/../secret/a.json":         false,
		"s3://other/logs/a.json":                    false,
		"mem://bucket/logs/a.json":                  false,
		"nats://host:4222/logs":                     false,
		"s3://bucket":                               false,
		"file:" + filepath.Join(allowed, "..", "x"): false,
	} {
		if got := ls.contains(loc); got != want {
			t.Errorf("contains(%q) = %v, want %v", loc, got, want)
		}
	}
	if _, err := ParseLocations([]string{"s3://bucket/a/../b"}); err == nil {
		t.Error("ParseLocations took a '..' segment in an s3 prefix")
	}
	if _, err := ParseLocations([]string{""}); err == nil {
		t.Error("ParseLocations took an empty prefix")
	}
}
