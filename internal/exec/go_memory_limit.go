package exec

// GoMemoryLimit is the Go runtime's soft memory limit
// (debug.SetMemoryLimit) for a process whose resident memory should stay
// within memoryLimit bytes. The runtime's limit covers only the memory it
// maps itself: the executable's pages that the process touches (about
// 40 MiB of sluice's RSS before any query) and other non-Go pages are
// outside it. So the runtime gets the limit less a fifth of it, at most
// 64 MiB; operator state keeps its StateShare of the whole limit.
func GoMemoryLimit(memoryLimit int64) int64 {
	if memoryLimit <= 0 {
		return memoryLimit
	}
	return memoryLimit - min(memoryLimit/5, 64<<20)
}

// GCPercent is the collector's target (debug.SetGCPercent) when the
// process runs under GoMemoryLimit and GOGC is not set: the heap may grow
// to 1 + GCPercent/100 times its live size between collections, the limit
// bounding it. Measured on the 1 GB NDJSON queries (BENCHMARKS.md).
const GCPercent = 400
