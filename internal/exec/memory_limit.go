package exec

import (
	"bufio"
	"fmt"
	"os"
	"sluice/internal/usererr"
	"strconv"
	"strings"
)

// ParseByteSize reads a memory size: a number of bytes with an optional
// unit, KB/MB/GB/TB (powers of 1024, as memory is sized) or KiB/MiB/...,
// case-insensitive, spaces allowed: '256MB', '1.5 GiB', '1048576'.
// "0", "none" and "unlimited" mean no limit (0).
func ParseByteSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "none", "unlimited", "off", "0":
		return 0, nil
	}
	units := []struct {
		suffix string
		mult   float64
	}{
		{"tib", 1 << 40}, {"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10},
		{"tb", 1 << 40}, {"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10},
		{"t", 1 << 40}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1},
	}
	mult := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*mult > 1<<62 {
		return 0, usererr.Errorf(usererr.Invalid, "memory size %q: want a number of bytes with an optional unit, like 256MB or 2GB", s)
	}
	return int64(v * mult), nil
}

// FormatBytes prints n in the largest binary unit that keeps it >= 1:
// 300 MiB, 1.5 GiB, 512 B.
func FormatBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	f := float64(n)
	i := 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if i == 0 || f == float64(int64(f)) {
		return fmt.Sprintf("%d %s", int64(f), units[i])
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}

// DefaultMemoryLimit is half of the memory this process may use: the
// cgroup's limit (v2 memory.max, or v1 memory.limit_in_bytes) when one is
// set, else physical memory (MemTotal in /proc/meminfo). It is 0
// (unlimited) when neither can be read.
func DefaultMemoryLimit() int64 {
	total := physicalMemory()
	if c := cgroupMemoryLimit(); c > 0 && (total == 0 || c < total) {
		total = c
	}
	return total / 2
}

func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}

func cgroupMemoryLimit() int64 {
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			return 0
		}
		v, err := strconv.ParseInt(s, 10, 64)
		// cgroup v1 reports "no limit" as a huge page-aligned number.
		if err != nil || v <= 0 || v >= 1<<60 {
			return 0
		}
		return v
	}
	return 0
}
