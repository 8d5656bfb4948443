package file

import (
	"fmt"

	"sluice/internal/connector"
	"sluice/internal/format"
)

// Only a stream's readers report row errors: in a stream, a row whose
// expressions fail (an overflow) is a bad row under the table's mode, so
// one bad value never stops a feed that runs for months. A batch query
// fails on it, with the error naming the expression (Spark's ANSI rule).
var _ connector.RowErrorReporter = (*badCountingReader)(nil)

// ReportRowError applies the table's mode to a row whose expressions
// failed: FAILFAST fails with the file and row; otherwise the row is a
// bad row, dead-lettered (when a location is set) and counted.
func (r *badCountingReader) ReportRowError(row int64, err error) error {
	if r.src.fopts.Mode == format.FailFast {
		return fmt.Errorf("%s: row %d: %w", r.name, row+1, err)
	}
	r.n.Add(1)
	if r.bad != nil {
		r.bad.add(format.BadRow{File: r.name, Reason: fmt.Sprintf("row %d: %v", row+1, err)})
	}
	return nil
}
