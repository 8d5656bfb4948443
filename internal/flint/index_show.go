package flint

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/sql"
)

// showIndexes is SHOW INDEXES ON t: its covering indexes' names.
func (f *Flint) showIndexes(ctx context.Context, s *sql.ShowIndexes) (*Result, error) {
	t, err := f.h.Table(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("SHOW INDEXES: %w", err)
	}
	objs, err := f.h.Catalog().Objects(indexKind)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, o := range objs {
		var spec indexSpec
		if json.Unmarshal(o.Options, &spec) == nil && spec.Kind == kindCovering && strings.EqualFold(spec.Table, t.Spec.Name) {
			rows = append(rows, []string{spec.Name})
		}
	}
	return stringRows([]string{"index_name"}, rows), nil
}

// showFlintIndexes is SHOW FLINT INDEXES [EXTENDED] IN catalog[.db]:
// Flint's columns, views included (kind mv).
func (f *Flint) showFlintIndexes(ctx context.Context, s *sql.ShowFlintIndexes) (*Result, error) {
	db, err := f.h.Database(ctx, s.In)
	if err != nil {
		return nil, fmt.Errorf("SHOW FLINT INDEXES: %w", err)
	}
	objs, err := f.h.Catalog().Objects(indexKind)
	if err != nil {
		return nil, err
	}
	status := func(stream string) (string, string) {
		rs := f.h.LastRun(stream)
		if rs == nil {
			return "active", ""
		}
		st := rs.Status()
		switch {
		case st.State == stateRunning:
			return "refreshing", ""
		case st.LastError != "":
			return "failed", st.LastError
		}
		return "active", ""
	}
	views := map[string]bool{}
	var rows [][]string
	for _, o := range objs {
		var spec indexSpec
		if json.Unmarshal(o.Options, &spec) != nil {
			continue
		}
		if tdb, _ := catalog.SplitStored(spec.Table); tdb != db {
			continue
		}
		_, table := catalog.SplitStored(spec.Table)
		auto, st, msg := spec.AutoRefresh, "", ""
		name := "NULL"
		if spec.Kind == kindCovering {
			views[strings.ToLower(spec.IndexTable)] = true
			name = spec.Name
			if _, mv, err := f.mviewDef(spec.IndexTable); err == nil {
				auto = mv.AutoRefresh
			}
			st, msg = status("mv_" + spec.IndexTable)
		} else {
			st, msg = status("si_" + spec.Flint)
		}
		rows = append(rows, []string{spec.Flint, spec.Kind, db, table, name, strconv.FormatBool(auto), st, msg})
	}
	mvs, err := f.h.Catalog().Objects("mview")
	if err != nil {
		return nil, err
	}
	for _, o := range mvs {
		vdb, vname := catalog.SplitStored(o.Name)
		if vdb != db || views[strings.ToLower(o.Name)] {
			continue
		}
		var mv ViewSpec
		_ = json.Unmarshal(o.Options, &mv)
		st, msg := status("mv_" + o.Name)
		rows = append(rows, []string{strings.ToLower("flint_" + catalog.CatalogNames[0] + "_" + vdb + "_" + vname), "mv", db, "NULL", vname,
			strconv.FormatBool(mv.AutoRefresh), st, msg})
	}
	slices.SortFunc(rows, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	cols := []string{"flint_index_name", "kind", "database", "table", "index_name", "auto_refresh", "status"}
	if s.Extended {
		cols = append(cols, "error")
	} else {
		for i := range rows {
			rows[i] = rows[i][:7]
		}
	}
	return stringRows(cols, rows), nil
}
