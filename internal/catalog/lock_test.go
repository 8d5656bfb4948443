package catalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sluice/internal/lockwait"
)

// TestLockWaitSaysSoAndStops: a catalog change behind another process's
// lock says what it waits for and ends when the process is told to stop,
// instead of blocking in flock for good.
func TestLockWaitSaysSoAndStops(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	held, err := os.OpenFile(filepath.Join(dir, ".catalog.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var said []string
	defer lockwait.SetNotify(func(m string) { mu.Lock(); said = append(said, m); mu.Unlock() })()
	ctx, cancel := context.WithCancel(context.Background())
	defer lockwait.Bind(ctx)()
	time.AfterFunc(1500*time.Millisecond, cancel)
	err = c.DropTable("t", true)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("DropTable behind a held lock: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(said) != 1 || !strings.Contains(said[0], "waiting for the catalog lock of "+dir) {
		t.Fatalf("said %q", said)
	}
}
