package archtest

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxPackageLines is the house rule: a package holds at most this many
// non-test lines, so one that grows past it is split along a seam (as
// internal/engine's Spark statements went to internal/engine/sparkstmt).
const maxPackageLines = 3000

// oversized are the packages over maxPackageLines when the rule came in:
// each waits for its split, and leaves this list when it has one (the
// test says so once it is under the limit).
var oversized = map[string]bool{
	"internal/connector/file":       true,
	"internal/connector/opensearch": true,
	"internal/exec":                 true,
	"internal/expr":                 true,
	"internal/expr/functions":       true,
	"internal/format":               true,
	"internal/plan":                 true,
	"internal/ppl":                  true,
	"internal/server":               true,
	"internal/sql":                  true,
}

// TestPackageSize: every package under cmd/ and internal/ keeps to
// maxPackageLines non-test lines, the oversized ones aside.
func TestPackageSize(t *testing.T) {
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	root := strings.TrimSpace(string(top))
	lines := map[string]int{}
	for _, dir := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir // not a package: go build skips it too
			}
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			lines[filepath.ToSlash(rel)] += bytes.Count(b, []byte("\n"))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(lines)) {
		n := lines[p]
		switch {
		case n > maxPackageLines && !oversized[p]:
			t.Errorf("%s has %d non-test lines, over %d: split it along a seam", p, n, maxPackageLines)
		case n <= maxPackageLines && oversized[p]:
			t.Errorf("%s has %d non-test lines, within %d now: take it off the oversized list", p, n, maxPackageLines)
		}
	}
	for p := range oversized {
		if _, ok := lines[p]; !ok {
			t.Errorf("oversized lists %s, which has no Go files", p)
		}
	}
}
