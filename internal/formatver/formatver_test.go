package formatver

import (
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	f := &Format{Name: "test format", Readers: []string{"0.x (any)", "0.x (commit abc1234 or later)"}}
	for _, tc := range []struct {
		name   string
		stamp  Stamp
		refuse string
	}{
		{"unversioned is 1", Stamp{}, ""},
		{"older", Stamp{Version: 1}, ""},
		{"current", f.Stamp(), ""},
		{"newer names its reader", Stamp{Version: 3, Reader: "0.x (commit def5678 or later)"},
			"f.json is test format format version 3, newer than this binary reads (up to 2): it needs sluice 0.x (commit def5678 or later)"},
		{"newer without a reader", Stamp{Version: 3}, "it needs a newer sluice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := f.Check("f.json", tc.stamp)
			if tc.refuse == "" {
				if err != nil {
					t.Fatalf("Check = %v, want nil", err)
				}
				return
			}
			var ne *NewerError
			if !errors.As(err, &ne) || !strings.Contains(err.Error(), tc.refuse) {
				t.Fatalf("Check = %v, want a NewerError containing %q", err, tc.refuse)
			}
		})
	}
}

// TestTable keeps every format's versions named, so that a refusal can
// say which binary reads the file.
func TestTable(t *testing.T) {
	names := map[string]bool{}
	for _, f := range All {
		if f.Name == "" || f.Where == "" || f.Current() < 1 || names[f.Name] {
			t.Errorf("format %+v: want a unique name, a place and at least one version", f)
		}
		names[f.Name] = true
		for v := 1; v <= f.Current(); v++ {
			if r := f.Reader(v); !strings.HasPrefix(r, "0.x (") {
				t.Errorf("%s version %d: reader %q, want 0.x (...) text", f.Name, v, r)
			}
		}
		if s := f.Stamp(); s.Version != f.Current() || s.Reader != f.Reader(f.Current()) {
			t.Errorf("%s: Stamp = %+v", f.Name, s)
		}
	}
}
