package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"sluice/internal/storage"
)

// ErrLocked means another process holds the stream's checkpoint.
var ErrLocked = errors.New("stream is already running")

// Lock keeps a second process off a checkpoint. On a local checkpoint it
// is an OS file lock, released by the kernel when the holder dies (so a
// restart after SIGKILL proceeds at once); on object stores it is a
// lease object renewed while the stream runs.
type Lock interface {
	Release() error
}

// DefaultLeaseTTL is how long an object-store lease lasts without
// renewal: after a crash, a restart waits at most this long.
const DefaultLeaseTTL = 30 * time.Second

// AcquireLock takes the checkpoint's lock or fails fast with ErrLocked.
func AcquireLock(ctx context.Context, cp *Checkpoint, owner string) (Lock, error) {
	return AcquireLockTTL(ctx, cp, owner, 0)
}

// AcquireLockTTL is AcquireLock with the object-store lease's TTL (0 is
// DefaultLeaseTTL); local checkpoints ignore it.
func AcquireLockTTL(ctx context.Context, cp *Checkpoint, owner string, ttl time.Duration) (Lock, error) {
	if ls, ok := cp.Store.(*storage.LocalStore); ok {
		return flockAcquire(filepath.Join(ls.Root(), filepath.FromSlash(cp.Prefix)), owner)
	}
	if ttl <= 0 {
		ttl = DefaultLeaseTTL
	}
	return leaseAcquire(ctx, cp, owner, ttl)
}

type flock struct{ f *os.File }

func flockAcquire(dir, owner string) (Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("locking checkpoint: %w", err)
	}
	path := filepath.Join(dir, ".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking checkpoint: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := io.ReadAll(f)
		f.Close()
		return nil, fmt.Errorf("%w (checkpoint %s is held by %s)", ErrLocked, dir, bytes.TrimSpace(holder))
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(owner+"\n"), 0)
	return &flock{f: f}, nil
}

func (l *flock) Release() error {
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	return l.f.Close()
}

type leaseRecord struct {
	Owner   string `json:"owner"`
	Expires int64  `json:"expires_unix_ms"`
}

type lease struct {
	cp    *Checkpoint
	ttl   time.Duration
	owner string
	stop  chan struct{}
	wg    sync.WaitGroup
}

func leaseAcquire(ctx context.Context, cp *Checkpoint, owner string, ttl time.Duration) (Lock, error) {
	key := cp.key("lock")
	rec := leaseRecord{Owner: owner, Expires: time.Now().Add(ttl).UnixMilli()}
	data, _ := json.Marshal(rec)
	for attempt := 0; attempt < 2; attempt++ {
		err := cp.Store.Put(ctx, key, bytes.NewReader(data), true)
		if err == nil {
			l := &lease{cp: cp, ttl: ttl, owner: owner, stop: make(chan struct{})}
			l.wg.Add(1)
			go l.renew()
			return l, nil
		}
		if !errors.Is(err, storage.ErrExists) {
			return nil, fmt.Errorf("locking checkpoint: %w", err)
		}
		var cur leaseRecord
		if err := cp.readJSON(ctx, key, &cur); err != nil {
			return nil, fmt.Errorf("locking checkpoint: %w", err)
		}
		if time.Now().UnixMilli() < cur.Expires {
			return nil, fmt.Errorf("%w (held by %s until %s)", ErrLocked, cur.Owner, time.UnixMilli(cur.Expires).UTC().Format(time.RFC3339))
		}
		// The holder died without releasing: take over. Two processes
		// racing here are still separated by put-if-absent on offsets/N.
		if err := cp.Store.Delete(ctx, key); err != nil {
			return nil, fmt.Errorf("locking checkpoint: %w", err)
		}
	}
	return nil, fmt.Errorf("%w (lock changed hands while acquiring)", ErrLocked)
}

func (l *lease) renew() {
	defer l.wg.Done()
	t := time.NewTicker(l.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			rec := leaseRecord{Owner: l.owner, Expires: time.Now().Add(l.ttl).UnixMilli()}
			data, _ := json.Marshal(rec)
			_ = l.cp.Store.Put(context.Background(), l.cp.key("lock"), bytes.NewReader(data), false)
		}
	}
}

func (l *lease) Release() error {
	close(l.stop)
	l.wg.Wait()
	return l.cp.Store.Delete(context.Background(), l.cp.key("lock"))
}
