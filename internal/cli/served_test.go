package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"sluice/internal/served"
)

// TestRouteServed: a data dir a live server holds sends the statements
// to it, saying so; --local refuses it, naming the server.
func TestRouteServed(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	o := Options{DataDir: dir, Stderr: &stderr}
	if err := RouteServed(&o); err != nil || o.Server != "" || stderr.Len() != 0 {
		t.Fatalf("no server: Server=%q err=%v stderr=%q", o.Server, err, stderr.String())
	}
	lock, err := os.OpenFile(filepath.Join(dir, served.LockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	url := "http://127.0.0.1:9"
	if err := served.Write(dir, served.Record{URL: url, PID: os.Getpid()}); err != nil {
		t.Fatal(err)
	}
	if err := RouteServed(&o); err != nil || o.Server != url {
		t.Fatalf("served: Server=%q err=%v", o.Server, err)
	}
	if want := dir + " is served by " + url + " (pid "; !strings.Contains(stderr.String(), want) || strings.Count(stderr.String(), "\n") != 1 {
		t.Fatalf("stderr %q, want one line with %q", stderr.String(), want)
	}
	local := Options{DataDir: dir, Stderr: &stderr, Local: true}
	err = RouteServed(&local)
	if err == nil || !strings.Contains(err.Error(), url) || !strings.Contains(err.Error(), "pid") || local.Server != "" {
		t.Fatalf("--local: Server=%q err=%v", local.Server, err)
	}
}
