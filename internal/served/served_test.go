package served

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

func holdLock(t *testing.T, dir string) *os.File {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestLookup(t *testing.T) {
	dir := t.TempDir()
	if _, ok := Lookup(dir); ok {
		t.Fatal("a record in an empty dir")
	}
	me := Record{URL: "http://127.0.0.1:9210", PID: os.Getpid()}
	if err := Write(dir, me); err != nil {
		t.Fatal(err)
	}
	if _, ok := Lookup(dir); ok {
		t.Fatal("a record whose lock nobody holds counts")
	}
	lock := holdLock(t, dir)
	if r, ok := Lookup(dir); !ok || r != me {
		t.Fatalf("Lookup = %+v, %v", r, ok)
	}

	// A PID that is gone makes the record stale even with the lock held.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, Record{URL: me.URL, PID: cmd.Process.Pid}); err != nil {
		t.Fatal(err)
	}
	if _, ok := Lookup(dir); ok {
		t.Fatal("a record of an exited process counts")
	}
	lock.Close()
	if err := Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir); err != nil {
		t.Fatalf("removing twice: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left %v (only the lock should stay)", entries)
	}
}

func TestDialURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:9210": "http://127.0.0.1:9210",
		"0.0.0.0:9210":   "http://127.0.0.1:9210",
		"[::]:9210":      "http://[::1]:9210",
		"[::1]:80":       "http://[::1]:80",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := DialURL("http", a); got != want {
			t.Errorf("DialURL(%s) = %s, want %s", addr, got, want)
		}
	}
}
