package engine

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// createdBy fills Spark's "Created By" row.
const createdBy = "Sluice"

// sparkTime is how Spark's DESCRIBE EXTENDED prints a time
// (java.util.Date's toString), in UTC.
func sparkTime(t time.Time) string {
	if t.IsZero() {
		return "UNKNOWN"
	}
	return t.UTC().Format("Mon Jan 02 15:04:05 MST 2006")
}

// describeColumn is DESCRIBE t col in Spark's layout: one row per fact
// of the column; EXTENDED adds the column statistics rows, all NULL as
// Sluice computes none.
func describeColumn(f arrow.Field, extended bool) *Result {
	rows := [][]string{{"col_name", f.Name}, {"data_type", types.SQLName(f.Type)}, {"comment", "NULL"}}
	if extended {
		for _, k := range []string{"min", "max", "num_nulls", "distinct_count", "avg_col_len", "max_col_len", "histogram"} {
			rows = append(rows, []string{k, "NULL"})
		}
	}
	return stringRows([]string{"info_name", "info_value"}, rows)
}
