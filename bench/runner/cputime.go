package runner

import "syscall"

// cpuTime is the process's user plus system CPU time in seconds, or 0
// where getrusage is unavailable.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
