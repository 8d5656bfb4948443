package sparkstmt

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/plan"
	"sluice/internal/storage"
	"sluice/internal/usererr"
)

// CheckOverwritable refuses INSERT OVERWRITE of a table Sluice cannot
// replace safely: only file tables (managed, or external over a folder)
// are replaced, file by file; a search index has no files to swap. A
// materialized view's table, one a stream writes and one a skipping
// index is on are refused as TRUNCATE refuses them, since they remember
// what is there; a stream that reads the table just reads the new files
// as it reads appended ones.
func (e *Runner) CheckOverwritable(ctx context.Context, t *catalog.Table) error {
	name := t.Spec.Name
	if !registry.NeedsLocation(t.Spec.Using, t.Spec.Location) {
		return usererr.Errorf(usererr.Invalid, "INSERT OVERWRITE %s: only a file table (json, csv, parquet) can be overwritten, not a %s table", name, t.Spec.Using)
	}
	if storage.IsGlob(t.Spec.Location) {
		return usererr.Errorf(usererr.Invalid, "INSERT OVERWRITE %s: its LOCATION %s is a glob; only a folder can be overwritten", name, t.Spec.Location)
	}
	users, err := e.tableUsers(ctx, name)
	if err != nil {
		return fmt.Errorf("INSERT OVERWRITE %s: %w", name, err)
	}
	var blocking []string
	for _, u := range users {
		if !strings.HasSuffix(u, " reads it") {
			blocking = append(blocking, u)
		}
	}
	if len(blocking) > 0 {
		return usererr.Errorf(usererr.Invalid, "INSERT OVERWRITE %s: %s", name, strings.Join(blocking, ", "))
	}
	return nil
}

// CheckOverwriteReads refuses a query that reads the table it
// overwrites, directly or through another table over the same files, as
// Spark does: the old files are deleted after the write.
func (e *Runner) CheckOverwriteReads(t *catalog.Table, n plan.Node) error {
	var err error
	walkPlanScans(n, func(s *plan.Scan) {
		if err != nil {
			return
		}
		if strings.EqualFold(s.Table, t.Spec.Name) {
			err = usererr.Errorf(usererr.Invalid, "INSERT OVERWRITE %s: the query reads the table it overwrites; write the rows to another table first", t.Spec.Name)
			return
		}
		if src, terr := e.catalog.Table(s.Table); terr == nil && registry.SameData(src.Spec, t.Spec) {
			err = usererr.Errorf(usererr.Invalid, "INSERT OVERWRITE %s: the query reads %s, which holds the same files; write the rows to another table first", t.Spec.Name, s.Table)
		}
	})
	return err
}

func walkPlanScans(n plan.Node, fn func(*plan.Scan)) {
	if s, ok := n.(*plan.Scan); ok {
		fn(s)
	}
	for _, c := range n.Children() {
		walkPlanScans(c, fn)
	}
}

// Overwrite runs run (the query into sink) and then deletes what the
// table (or the static partition) held before. The new files are stored first, so a
// failed query removes only them and a crash before the old files are
// deleted leaves both: rows are never lost, at worst shown twice until
// the next overwrite.
func Overwrite(ctx context.Context, t *catalog.Table, sink connector.Sink, sp *StaticPartition, run func(context.Context) (int64, error)) (int64, error) {
	name := t.Spec.Name
	rep, ok := sink.(connector.Replacer)
	if !ok {
		return 0, usererr.Errorf(usererr.Invalid, "INSERT OVERWRITE %s: a %s table cannot be overwritten", name, t.Spec.Using)
	}
	var static []arrow.Array
	if sp != nil {
		static = sp.values
	}
	if err := rep.BeginReplace(ctx, static); err != nil {
		if errors.Is(err, storage.ErrForeignFiles) {
			return 0, usererr.Wrap(usererr.Invalid, fmt.Errorf("INSERT OVERWRITE %s: %w", name, err))
		}
		return 0, fmt.Errorf("INSERT OVERWRITE %s: %w", name, err)
	}
	rows, err := run(ctx)
	if err != nil {
		// A cancelled statement still removes what it wrote.
		if aerr := rep.AbortReplace(context.WithoutCancel(ctx)); aerr != nil {
			return 0, fmt.Errorf("%w (and the rows written so far stay: %v)", err, aerr)
		}
		return 0, err
	}
	if err := rep.CommitReplace(ctx); err != nil {
		return 0, fmt.Errorf("INSERT OVERWRITE %s: %w", name, err)
	}
	return rows, nil
}

// OverwriteTarget names what an overwrite replaced, for its message.
func OverwriteTarget(t *catalog.Table, sp *StaticPartition) string {
	if sp == nil {
		return t.Spec.Name
	}
	parts := make([]string, len(sp.names))
	for i, k := range sp.names {
		parts[i] = k + "=" + sp.values[i].ValueStr(0)
	}
	return fmt.Sprintf("%s partition (%s)", t.Spec.Name, strings.Join(parts, ", "))
}
