package file

import (
	"math"

	"sluice/internal/connector"
	"sluice/internal/format"
)

// defaultSplitSize is the part size of a large file in a batch read: big
// enough that the per-part cost (a ranged open, a few KiB read twice)
// vanishes, small enough that one 1 GB file keeps every core busy.
const defaultSplitSize = 64 << 20

// splitsOf cuts one listed file into the byte ranges of parts of about
// splitSize bytes (see format.Part), or returns it whole: when splitting
// is off, the file is small, its format or compression cannot be cut, or
// the query wants _row of a line format, which a part would have to count
// the lines before it for (Parquet parts know their row numbers from the
// footer). The parts of a file are in file order, so a scan that keeps
// split order reads the file's rows in order.
func (s *Source) splitsOf(f fileEntry, split bool) [][2]int64 {
	size := s.sopts.SplitSize
	if !split || size <= 0 || f.Size <= size || !format.Splittable(s.format, s.fopts, f.Key) {
		return nil
	}
	if s.format != "parquet" && s.wantsRow() {
		return nil
	}
	n := (f.Size + size - 1) / size
	if n > math.MaxInt32 {
		return nil
	}
	parts := make([][2]int64, 0, n)
	for start := int64(0); start < f.Size; start += size {
		parts = append(parts, [2]int64{start, min(start+size, f.Size)})
	}
	return parts
}

// wantsRow reports whether the query reads the _row column.
func (s *Source) wantsRow() bool {
	for _, f := range s.out.Fields() {
		if f.Name == connector.RowColumn {
			return true
		}
	}
	return false
}
