//go:build linux || darwin || freebsd || netbsd || openbsd

package storage

import (
	"io/fs"
	"syscall"
)

// changeTime is the file's ctime (ns) and inode.
func changeTime(fi fs.FileInfo) (int64, uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return ctimeNanos(st), uint64(st.Ino), true
}
