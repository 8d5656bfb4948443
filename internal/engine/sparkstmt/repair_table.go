package sparkstmt

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// repairTable is MSCK REPAIR TABLE t: it finds the table's key=value
// folders again. A table made before its location had any becomes
// partitioned by them (their columns added, typed by inference); a
// partitioned table needs nothing (each query lists its folders) and is
// told how many there are now. A table with none is an error, as in
// Spark.
func (e *Runner) repairTable(ctx context.Context, s *sql.TableCommand) (*Result, error) {
	t, err := e.commandTable(ctx, s)
	if err != nil {
		return nil, err
	}
	if len(t.Spec.PartitionBy) == 0 {
		have := map[string]bool{}
		for _, f := range t.Spec.Schema.Fields() {
			have[strings.ToLower(f.Name)] = true
		}
		parts, extra := e.h.DiscoverPartitions(ctx, t.Spec, have)
		if len(parts) == 0 {
			return nil, usererr.Errorf(usererr.Invalid, "MSCK REPAIR TABLE %s: the table is not partitioned (no key=value folders under its location)", t.Spec.Name)
		}
		err := e.catalog.UpdateTable(t.Spec.Name, func(t *catalog.Table) error {
			if len(t.Spec.PartitionBy) > 0 {
				return nil // another statement did it first
			}
			t.Spec.PartitionBy = parts
			t.Spec.Schema = arrow.NewSchema(append(t.Spec.Schema.Fields(), extra...), nil)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("MSCK REPAIR TABLE %s: %w", t.Spec.Name, err)
		}
	}
	found, err := e.listPartitions(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("MSCK REPAIR TABLE %s: %w", t.Spec.Name, err)
	}
	return message("table %s: %d partitions", t.Spec.Name, len(found)), nil
}
