// Package served is the note a `sluice serve` leaves beside its data dir
// lock: the URL it listens on and its PID. A `sluice sql` on the same
// data dir reads it to send its statements to the server instead of
// opening the data dir in-process, where it would wait on the locks the
// server holds (the local index's, the checkpoints') or show the
// server's running streams as stopped.
package served

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"syscall"
)

// LockFile is the data dir lock of `sluice serve` (an flock the kernel
// drops when the holder dies), under the data dir.
const LockFile = ".serve.lock"

// recordFile is the note, beside LockFile.
const recordFile = ".serve.json"

// Record is who serves a data dir.
type Record struct {
	URL string `json:"url"` // base URL, e.g. http://127.0.0.1:9210
	PID int    `json:"pid"`
}

// Write records r for dir, atomically (a reader never sees half of it).
func Write(dir string, r Record) error {
	data, _ := json.Marshal(r)
	f, err := os.CreateTemp(dir, recordFile+".tmp-*")
	if err != nil {
		return fmt.Errorf("recording the server's URL: %w", err)
	}
	_, werr := f.Write(append(data, '\n'))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), filepath.Join(dir, recordFile))
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("recording the server's URL: %w", werr)
	}
	return nil
}

// Remove deletes dir's record; none is no error.
func Remove(dir string) error {
	err := os.Remove(filepath.Join(dir, recordFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// Lookup is the server of dir, if one runs: a record whose process is
// gone, or whose data dir lock nobody holds (a server killed with -9, its
// PID reused), is stale and ignored.
func Lookup(dir string) (Record, bool) {
	data, err := os.ReadFile(filepath.Join(dir, recordFile))
	if err != nil {
		return Record{}, false
	}
	var r Record
	if json.Unmarshal(data, &r) != nil || r.URL == "" || r.PID <= 0 {
		return Record{}, false
	}
	if err := syscall.Kill(r.PID, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return Record{}, false
	}
	if !lockHeld(dir) {
		return Record{}, false
	}
	return r, true
}

// lockHeld reports whether some process holds dir's LockFile.
func lockHeld(dir string) bool {
	f, err := os.Open(filepath.Join(dir, LockFile))
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// DialURL is the URL a client on this host uses for a server listening
// at addr with scheme: an unspecified address (0.0.0.0, ::) becomes
// loopback, which it also listens on.
func DialURL(scheme string, addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return scheme + "://" + addr.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip.To4() == nil {
			host = "::1"
		}
	}
	u := url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port)}
	return u.String()
}
