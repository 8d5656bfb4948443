package format

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// ColumnStats are one column's statistics in one Parquet row group, as Go
// values: int64, float64, string, bool; TIMESTAMP as int64 microseconds,
// DATE as int64 days.
type ColumnStats struct {
	Min, Max  any
	NullCount int64
	// HasMinMax is false when the file recorded no min/max for the column.
	HasMinMax bool
}

// RowGroupStats describes one Parquet row group for Options.RowGroupFilter.
type RowGroupStats struct {
	Index   int   // row group number in the file
	NumRows int64 // rows in the group
	// Columns by top-level column name.
	Columns map[string]ColumnStats
}

// Column returns the statistics of a column, matched exactly then
// case-insensitively; ok is false when the file has no min/max for it, in
// which case the group cannot be pruned on that column.
func (s RowGroupStats) Column(name string) (min, max any, nullCount int64, ok bool) {
	c, found := s.Columns[name]
	if !found {
		for k, v := range s.Columns {
			if strings.EqualFold(k, name) {
				c, found = v, true
				break
			}
		}
	}
	if !found {
		return nil, nil, 0, false
	}
	return c.Min, c.Max, c.NullCount, c.HasMinMax
}

func newParquetReader(ctx context.Context, file File, schema *arrow.Schema, opts Options) (Reader, error) {
	return nil, fmt.Errorf("reading %s: parquet not implemented yet", file.Name)
}
