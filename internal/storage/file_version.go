package storage

import (
	"fmt"
	"io/fs"
	"strings"
)

// localVersion is a local file's ETag: its size, mtime, ctime and inode,
// in hex, as size-mtime-ctime-inode. Size and mtime alone miss a file
// rewritten with both kept (`cp -p`, `rsync -a`, `touch -r`); the ctime
// moves on every write, rename and chmod, and a file swapped in by rename
// has another inode. Where the platform gives neither, it is size-mtime.
func localVersion(fi fs.FileInfo) string {
	v := fmt.Sprintf("%x-%x", fi.Size(), fi.ModTime().UnixNano())
	if ctime, ino, ok := changeTime(fi); ok {
		v += fmt.Sprintf("-%x-%x", ctime, ino)
	}
	return v
}

// SameVersion reports whether two ETags of one object name the same
// content. They must be equal, except that a local file's size-mtime ETag,
// recorded by a binary before the ctime and inode were part of it, still
// matches today's ETag with the same size and mtime: a checkpoint written
// then keeps its files read once. Judging whether an index may skip a
// file wants more (Trusted).
func SameVersion(old, now string) bool {
	if old == now {
		return true
	}
	return isLegacyLocal(old) && strings.HasPrefix(now, old+"-") && strings.Count(now, "-") == 3
}

// Trusted reports whether an ETag tells a rewritten file apart: every
// ETag but a local size-mtime one, which a rewrite that keeps both does
// not change. An index must read a file whose recorded version is not
// trusted, never skip it.
func Trusted(version string) bool { return version != "" && !isLegacyLocal(version) }

// isLegacyLocal: v is hex-hex, a local ETag without ctime and inode (not
// an unquoted multipart S3 ETag, an MD5's 32 hex digits and a part count).
func isLegacyLocal(v string) bool {
	a, b, ok := strings.Cut(v, "-")
	return ok && len(a) < 32 && isHex(a) && isHex(b)
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
