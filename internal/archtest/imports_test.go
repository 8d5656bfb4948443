// Package archtest checks the layering docs/architecture.md promises, so
// a change that breaks it fails a test instead of a review.
package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// deps lists the sluice packages pkg depends on; direct imports only when
// direct is true.
func deps(t *testing.T, pkg string, direct bool) []string {
	t.Helper()
	args := []string{"list", "-deps", "sluice/" + pkg}
	if direct {
		args = []string{"list", "-f", `{{join .Imports "\n"}}`, "sluice/" + pkg}
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go %s: %v", strings.Join(args, " "), err)
	}
	var res []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "sluice/") && l != "sluice/"+pkg {
			res = append(res, strings.TrimPrefix(l, "sluice/"))
		}
	}
	return res
}

func TestLayering(t *testing.T) {
	for _, tc := range []struct {
		pkg       string
		direct    bool
		forbidden func(dep string) bool
		why       string
	}{
		{"internal/engine", true, func(d string) bool {
			return strings.HasPrefix(d, "internal/connector/") && d != "internal/connector/registry"
		}, "the engine reaches connectors only through the registry"},
		{"internal/engine/sparkstmt", true, func(d string) bool {
			return strings.HasPrefix(d, "internal/connector/") && d != "internal/connector/registry"
		}, "Spark's statements reach connectors only through the registry"},
		{"internal/engine/sparkstmt", false, func(d string) bool {
			return d == "internal/engine" || d == "internal/flint" || d == "internal/streams" || d == "internal/job" || d == "internal/server"
		}, "Spark's statements reach the engine, its streams, views and indexes only through sparkstmt.Host"},
		{"internal/engine/access", true, func(d string) bool {
			return d != "internal/catalog" && d != "internal/storage" && d != "internal/usererr"
		}, "a session's data rule is about places: it imports catalog (file names), storage (locations) and usererr only"},
		{"internal/flint", true, func(d string) bool {
			return d == "internal/engine" || (strings.HasPrefix(d, "internal/connector/") && d != "internal/connector/registry")
		}, "flint reaches the engine only through flint.Host, connectors only through the registry"},
		{"internal/streams", false, func(d string) bool {
			return d == "internal/engine" || d == "internal/server"
		}, "streams reach the engine only through streams.Host: the engine imports them, never the other way"},
		{"internal/streams", true, func(d string) bool {
			return strings.HasPrefix(d, "internal/connector/") && d != "internal/connector/registry"
		},
			"streams reach connectors only through the registry"},
		{"internal/job", false, func(d string) bool { return d == "internal/engine" || d == "internal/server" },
			"job is what the engine runs streams with: the engine imports it, never the other way"},
		{"internal/plan", false, func(d string) bool {
			return d == "internal/physical" || d == "internal/exec" || d == "internal/engine"
		}, "plan never depends on physical planning or execution"},
		{"internal/exec", false, func(d string) bool {
			return d == "internal/plan" || d == "internal/physical" || d == "internal/engine"
		}, "exec never depends on the logical plan or the engine"},
		{"internal/physical", false, func(d string) bool {
			return d == "internal/engine" || (strings.HasPrefix(d, "internal/connector/") && d != "internal/connector/pushdown")
		}, "physical compiles plans; it opens no connector"},
		{"internal/server", false, func(d string) bool { return d == "internal/cli" }, "the server renders values through internal/types, not the CLI"},
		{"internal/storage", false, func(d string) bool { return strings.HasPrefix(d, "internal/") }, "storage imports nothing of ours"},
		{"internal/types", false, func(d string) bool { return strings.HasPrefix(d, "internal/") }, "types imports nothing of ours"},
		{"internal/docid", false, func(d string) bool { return strings.HasPrefix(d, "internal/") && d != "internal/types" }, "docid names documents from values: it imports types only"},
		{"internal/safepath", false, func(d string) bool { return strings.HasPrefix(d, "internal/") }, "safepath imports nothing of ours"},
		{"internal/formatver", false, func(d string) bool { return strings.HasPrefix(d, "internal/") }, "formatver imports nothing of ours: every persisting package imports it"},
	} {
		for _, d := range deps(t, tc.pkg, tc.direct) {
			if tc.forbidden(d) {
				t.Errorf("%s depends on %s: %s", tc.pkg, d, tc.why)
			}
		}
	}
}

// TestDataDirVariableReadOnlyByRegistry: the registry decides where data
// lives by default; nothing else reads SLUICE_DATA_DIR.
func TestDataDirVariableReadOnlyByRegistry(t *testing.T) {
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	grep := exec.Command("git", "grep", "-l", "Getenv(\"SLUICE_DATA_DIR\")", "--", "*.go", ":!*_test.go")
	grep.Dir = strings.TrimSpace(string(top))
	out, err := grep.Output()
	if err != nil && len(out) == 0 {
		// git grep exits 1 when nothing matches at all.
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Skipf("git grep unavailable: %v", err)
		}
	}
	for _, f := range strings.Fields(string(out)) {
		if !strings.HasPrefix(f, "internal/connector/registry/") {
			t.Errorf("%s reads SLUICE_DATA_DIR; ask registry.DataDir instead", f)
		}
	}
}
