//go:build unix

package catalog

import (
	"errors"
	"syscall"
)

// processAlive: signal 0 reaches pid, or it exists under another user.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
