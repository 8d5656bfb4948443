package integration

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records Skip and Fatalf instead of
// ending a test, the way the testing package would: both stop the
// calling goroutine.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}

func (r *recorder) Skip(args ...any) {
	r.skipped, r.msg = true, fmt.Sprint(args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func unavailable(tb *recorder) (returned bool) {
	done := make(chan bool)
	go func() {
		defer close(done)
		Unavailable(tb, "S3 SERVER UNAVAILABLE: %s", "no versitygw")
		returned = true
	}()
	<-done
	return returned
}

func TestUnavailable(t *testing.T) {
	for _, tt := range []struct {
		ci         string
		skip, fail bool
		inCI       bool
	}{
		{"", true, false, false},
		{"false", true, false, false},
		{"true", false, true, true},
		{"1", false, true, true},
	} {
		t.Run("CI="+tt.ci, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			if InCI() != tt.inCI {
				t.Errorf("InCI() = %v", InCI())
			}
			r := &recorder{TB: t}
			if unavailable(r) {
				t.Fatal("Unavailable returned")
			}
			if r.skipped != tt.skip || r.failed != tt.fail {
				t.Fatalf("skipped %v, failed %v; want %v, %v", r.skipped, r.failed, tt.skip, tt.fail)
			}
			if !strings.HasPrefix(r.msg, "S3 SERVER UNAVAILABLE: no versitygw") {
				t.Errorf("message %q", r.msg)
			}
		})
	}
}
