package sparkstmt

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/usererr"
)

// ShowPartitions is SHOW PARTITIONS t: the key=value folder paths of a
// file table's location ("year=2026/month=1"), sorted, as Spark lists
// them. A table with neither declared partition columns nor such
// folders is not partitioned: an error, as in Spark.
func (e *Runner) ShowPartitions(ctx context.Context, s *sql.ShowPartitions) (*Result, error) {
	stored, err := e.h.Qualify(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("SHOW PARTITIONS: %w", err)
	}
	t, err := e.catalog.Table(stored)
	if err != nil {
		return nil, fmt.Errorf("SHOW PARTITIONS: %w", e.h.SuggestTable(ctx, s.Table, err))
	}
	parts, err := e.listPartitions(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("SHOW PARTITIONS %s: %w", t.Spec.Name, err)
	}
	if len(parts) == 0 && len(t.Spec.PartitionBy) == 0 {
		return nil, usererr.Errorf(usererr.Invalid, "SHOW PARTITIONS %s: the table is not partitioned", t.Spec.Name)
	}
	rows := make([][]string, len(parts))
	for i, p := range parts {
		rows[i] = []string{p}
	}
	return stringRows([]string{"partition"}, rows), nil
}

// listPartitions lists the distinct key=value folder paths under a
// table's location (hidden folders skipped, as a scan skips them); none
// for a table that is not over a folder of files.
func (e *Runner) listPartitions(ctx context.Context, t *catalog.Table) ([]string, error) {
	loc := t.Spec.Location
	if loc == "" || storage.IsGlob(loc) {
		return nil, nil
	}
	opts := map[string]string{}
	for k, v := range e.h.Settings(ctx) {
		if strings.HasPrefix(k, "s3.") {
			opts[k] = v
		}
	}
	maps.Copy(opts, t.Spec.Options)
	so, err := storage.OptionsFromMap(opts)
	if err != nil {
		return nil, err
	}
	st, prefix, err := storage.Resolve(ctx, loc, so)
	if err != nil {
		return nil, err
	}
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	seen := map[string]bool{}
	err = st.List(ctx, prefix, "", func(o storage.ObjectInfo) error {
		dirs := strings.Split(strings.TrimPrefix(o.Key, prefix), "/")
		var kv []string
		for _, d := range dirs[:len(dirs)-1] {
			if !strings.Contains(d, "=") {
				break
			}
			kv = append(kv, d)
		}
		if len(kv) > 0 {
			seen[strings.Join(kv, "/")] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(seen)), nil
}
