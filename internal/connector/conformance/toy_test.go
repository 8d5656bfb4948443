package conformance_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/connector/conformance"
	"sluice/internal/connector/conformance/toy"
)

// brokenEnv names the bug TestBrokenToyChild runs the suite against.
const brokenEnv = "SLUICE_CONFORMANCE_BROKEN"

// TestBrokenToyChild runs the suite against one broken toy; it only runs
// when TestBrokenToys starts it, in a child process, so that its failure
// is observed rather than failing this run.
func TestBrokenToyChild(t *testing.T) {
	bug := os.Getenv(brokenEnv)
	if bug == "" {
		t.Skip("run by TestBrokenToys")
	}
	conformance.Run(t, []*connector.Factory{toy.Broken(bug)})
}

// TestBrokenToys checks that the suite catches each of the toy's bugs in
// the check that is about it, and that the healthy toy passes.
func TestBrokenToys(t *testing.T) {
	for _, tc := range []struct {
		bug string
		// fails is a sub-test that must fail; passes one that must pass.
		fails, passes string
	}{
		{toy.DuplicateOnReplay, "toy-duplicate-on-replay/replay", "toy-duplicate-on-replay/round_trip"},
		{toy.LossyFilter, "toy-lossy-filter/pushdown/filter", "toy-lossy-filter/pushdown/projection"},
		{toy.Undeclared, "toy-undeclared", ""},
	} {
		t.Run(tc.bug, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenToyChild$", "-test.v")
			cmd.Env = append(os.Environ(), brokenEnv+"="+tc.bug)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed a toy with bug %s:\n%s", tc.bug, tail(out))
			}
			if !regexp.MustCompile(`--- FAIL: TestBrokenToyChild/` + regexp.QuoteMeta(tc.fails) + ` `).Match(out) {
				t.Errorf("sub-test %s did not fail:\n%s", tc.fails, tail(out))
			}
			if tc.passes != "" && !regexp.MustCompile(`--- PASS: TestBrokenToyChild/`+regexp.QuoteMeta(tc.passes)+` `).Match(out) {
				t.Errorf("sub-test %s did not pass:\n%s", tc.passes, tail(out))
			}
		})
	}
}

func tail(out []byte) string {
	lines := strings.Split(string(out), "\n")
	if len(lines) > 60 {
		lines = lines[len(lines)-60:]
	}
	return strings.Join(lines, "\n")
}
