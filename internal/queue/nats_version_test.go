package queue

import (
	"errors"
	"strings"
	"testing"

	"sluice/internal/usererr"
)

func TestCheckServerVersion(t *testing.T) {
	for _, c := range []struct {
		version string
		refused bool
	}{
		{"2.9.10", true},
		{"2.9.25", true},
		{"2.2.0", true},
		{"1.4.1", true},
		{"2.10", false},
		{"2.10.0", false},
		{"2.10.0-RC.1", false},
		{"v2.11.3", false},
		{"2.15.2", false},
		{"3.0.0", false},
		{"2.9.10-beta+abc", true},
		{"", false},
		{"dev", false},
	} {
		err := CheckServerVersion(c.version)
		if (err != nil) != c.refused {
			t.Errorf("%q: %v, want refused=%v", c.version, err, c.refused)
			continue
		}
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrNATSVersion) || !usererr.IsUser(err) {
			t.Errorf("%q: %v, want ErrNATSVersion, a user error", c.version, err)
		}
		if !strings.Contains(err.Error(), c.version) || !strings.Contains(err.Error(), "2.10.0") {
			t.Errorf("%q: %v, want the server's version and the minimum named", c.version, err)
		}
	}
}
