// Package integration decides what a test does when the real server it
// needs (the Versity S3 gateway, an OpenSearch node) cannot be installed
// or started: outside CI it skips loudly, so a developer without the
// servers still gets a green run of everything else; in CI (CI=true) it
// fails, because a green CI run must mean the integration tests ran.
package integration

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

// InCI reports whether the tests run in CI: $CI is a true value
// ("true", "1"), as CI systems set it.
func InCI() bool {
	v, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && v
}

// Unavailable ends tb because its server is unavailable for reason
// (which should start with the server's "... UNAVAILABLE" marker): a
// skip outside CI, a failure in CI. Like Skip and Fatal it does not
// return.
func Unavailable(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("%s (CI=%s: integration servers must be available in CI, so this fails instead of skipping)", msg, os.Getenv("CI"))
	}
	tb.Skip(msg)
}
