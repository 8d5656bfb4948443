package sparkstmt

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/sql"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// analyzeTable is Spark's ANALYZE TABLE t COMPUTE STATISTICS [NOSCAN |
// FOR COLUMNS a, b | FOR ALL COLUMNS]: the size of the table's files
// (NOSCAN: only that), its row count, and per column min, max, nulls,
// an approximate distinct count (HyperLogLog, as Spark's) and lengths.
// They are kept in the catalog until the next write to the table and
// shown by DESCRIBE EXTENDED; the planner does not use them.
func (e *Runner) analyzeTable(ctx context.Context, s *sql.TableCommand) (*Result, error) {
	t, err := e.commandTable(ctx, s)
	if err != nil {
		return nil, err
	}
	name := t.Spec.Name
	src, err := e.h.OpenSource(ctx, t.Spec)
	if err != nil {
		return nil, fmt.Errorf("ANALYZE TABLE %s: %w", name, err)
	}
	sized, ok := src.(connector.SizeReporter)
	if !ok {
		return nil, usererr.Errorf(usererr.Invalid, "ANALYZE TABLE %s: statistics are kept for file tables; a USING %s table's store keeps its own", name, t.Spec.Using)
	}
	_, size, err := sized.DataSize(ctx)
	if err != nil {
		return nil, fmt.Errorf("ANALYZE TABLE %s: listing its files: %w", name, err)
	}
	stats := &catalog.TableStats{SizeBytes: size, Analyzed: e.h.Now()}
	if !s.NoScan {
		cols, err := analyzedColumns(t, s)
		if err != nil {
			return nil, err
		}
		if err := e.scanStats(ctx, t, cols, stats); err != nil {
			return nil, fmt.Errorf("ANALYZE TABLE %s: %w", name, err)
		}
	}
	if err := e.catalog.UpdateTable(name, func(t *catalog.Table) error {
		t.Stats = stats
		return nil
	}); err != nil {
		return nil, fmt.Errorf("ANALYZE TABLE %s: %w", name, err)
	}
	return message("table %s analyzed: %s", name, statsText(stats)), nil
}

// analyzedColumns are the fields FOR COLUMNS names (FOR ALL COLUMNS:
// every one), refusing the types Spark keeps no statistics for.
func analyzedColumns(t *catalog.Table, s *sql.TableCommand) ([]arrow.Field, error) {
	var out []arrow.Field
	for _, f := range t.Spec.Schema.Fields() {
		if s.AllColumns || containsFold(s.Columns, f.Name) {
			out = append(out, f)
		}
	}
	for _, c := range s.Columns {
		if !fieldIn(out, c) {
			return nil, usererr.Errorf(usererr.NotFound, "ANALYZE TABLE %s: no column %s", t.Spec.Name, c)
		}
	}
	for _, f := range out {
		switch f.Type.ID() {
		case arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.STRUCT:
			return nil, usererr.Errorf(usererr.Invalid, "ANALYZE TABLE %s: column %s is of type %s, which keeps no statistics (as in Spark)", t.Spec.Name, f.Name, types.CatalogString(f.Type))
		}
	}
	return out, nil
}

// scanStats reads the table once: its row count and each column's
// statistics, as strings (Spark's casts) so any type renders as Spark
// prints it.
func (e *Runner) scanStats(ctx context.Context, t *catalog.Table, cols []arrow.Field, stats *catalog.TableStats) error {
	str := func(x sql.Expr) *sql.SelectItem { return sql.Item(&sql.Cast{X: x, Type: arrow.BinaryTypes.String}) }
	null := func() *sql.SelectItem { return str(&sql.Literal{Kind: sql.LitNull, Value: "NULL"}) }
	items := []*sql.SelectItem{str(sql.CountAll())}
	for _, f := range cols {
		c := func() sql.Expr { return sql.Col(f.Name) }
		switch ts, isTS := f.Type.(*arrow.TimestampType); {
		case !hasMinMax(f.Type):
			items = append(items, null(), null())
		case isTS:
			// Spark prints a timestamp's bounds with microseconds and the
			// zone's offset (sessions here are UTC).
			bound := func(agg string) *sql.SelectItem {
				x := sql.Expr(sql.NewCall("date_format", sql.NewCall(agg, c()), sql.StringLit("yyyy-MM-dd HH:mm:ss.SSSSSS")))
				if ts.TimeZone != "" {
					x = sql.NewCall("concat", x, sql.StringLit(" +0000"))
				}
				return sql.Item(x)
			}
			items = append(items, bound("min"), bound("max"))
		default:
			items = append(items, str(sql.NewCall("min", c())), str(sql.NewCall("max", c())))
		}
		items = append(items, str(&sql.Binary{Op: sql.OpSub, L: sql.CountAll(), R: sql.NewCall("count", c())}),
			str(sql.NewCall("approx_count_distinct", c())))
		if varLen(f.Type) {
			avg := &sql.Cast{X: sql.NewCall("ceil", sql.NewCall("avg", sql.NewCall("length", c()))), Type: arrow.PrimitiveTypes.Int64}
			items = append(items, str(avg), str(sql.NewCall("max", sql.NewCall("length", c()))))
		} else {
			items = append(items, null(), null())
		}
	}
	q := sql.NewQuery(sql.NewSelect(sql.TableRef(t.Spec.Name), items...))
	r, err := e.h.Collect(ctx, q)
	if err != nil {
		return err
	}
	row := firstRowStrings(r)
	if len(row) != 1+6*len(cols) {
		return fmt.Errorf("counting rows: %d values for %d", len(row), 1+6*len(cols))
	}
	n, _ := strconv.ParseInt(row[0], 10, 64)
	stats.Rows = &n
	for i, f := range cols {
		v := row[1+6*i:]
		cs := catalog.ColumnStats{Min: v[0], Max: v[1]}
		cs.NumNulls, _ = strconv.ParseInt(v[2], 10, 64)
		cs.DistinctCount, _ = strconv.ParseInt(v[3], 10, 64)
		if varLen(f.Type) {
			// Spark: the average and longest length of the values, or the
			// type's default size when all are NULL.
			cs.AvgLen, cs.MaxLen = lenOr(v[4], 20), lenOr(v[5], 20)
		} else {
			cs.AvgLen = fixedSize(f.Type)
			cs.MaxLen = cs.AvgLen
		}
		if stats.Columns == nil {
			stats.Columns = map[string]catalog.ColumnStats{}
		}
		stats.Columns[f.Name] = cs
	}
	return nil
}

// firstRowStrings is the first row of STRING columns, NULL as "".
func firstRowStrings(batches []arrow.RecordBatch) []string {
	for _, b := range batches {
		if b.NumRows() == 0 {
			continue
		}
		out := make([]string, b.NumCols())
		for i, c := range b.Columns() {
			if s, ok := c.(*array.String); ok && s.IsValid(0) {
				out[i] = s.Value(0)
			}
		}
		return out
	}
	return nil
}

// statsText is Spark's Statistics row: "N bytes" or "N bytes, M rows".
func statsText(s *catalog.TableStats) string {
	out := strconv.FormatInt(s.SizeBytes, 10) + " bytes"
	if s.Rows != nil {
		out += ", " + strconv.FormatInt(*s.Rows, 10) + " rows"
	}
	return out
}

// columnStatsRows are DESCRIBE EXTENDED t col's statistics rows; NULL
// when the column was not analyzed.
func columnStatsRows(t *catalog.Table, col string) [][]string {
	keys := []string{"min", "max", "num_nulls", "distinct_count", "avg_col_len", "max_col_len", "histogram"}
	vals := make([]string, len(keys))
	for i := range vals {
		vals[i] = "NULL"
	}
	if t.Stats != nil {
		for name, cs := range t.Stats.Columns {
			if !strings.EqualFold(name, col) {
				continue
			}
			vals[0], vals[1] = cmp.Or(cs.Min, "NULL"), cmp.Or(cs.Max, "NULL")
			vals[2], vals[3] = strconv.FormatInt(cs.NumNulls, 10), strconv.FormatInt(cs.DistinctCount, 10)
			vals[4], vals[5] = strconv.FormatInt(cs.AvgLen, 10), strconv.FormatInt(cs.MaxLen, 10)
		}
	}
	rows := make([][]string, len(keys))
	for i, k := range keys {
		rows[i] = []string{k, vals[i]}
	}
	return rows
}

// ClearStats forgets a table's statistics once it was written to, as
// Spark does when it does not recompute them (spark.sql.statistics.
// size.autoUpdate off, its default).
func (e *Runner) ClearStats(name string) {
	t, err := e.catalog.Table(name)
	if err != nil || t.Stats == nil {
		return
	}
	_ = e.catalog.UpdateTable(name, func(t *catalog.Table) error {
		t.Stats = nil
		return nil
	})
}

func hasMinMax(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return false
	}
	return true
}

func varLen(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return true
	}
	return false
}

// fixedSize is Spark's defaultSize of a fixed-width type.
func fixedSize(t arrow.DataType) int64 {
	switch t.ID() {
	case arrow.INT8, arrow.BOOL:
		return 1
	case arrow.INT16:
		return 2
	case arrow.INT32, arrow.FLOAT32, arrow.DATE32:
		return 4
	case arrow.DECIMAL128:
		if dt, ok := t.(*arrow.Decimal128Type); ok && dt.Precision > 18 {
			return 16
		}
	}
	return 8
}

func lenOr(s string, def int64) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return def
	}
	return n
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

func fieldIn(fs []arrow.Field, name string) bool {
	for _, f := range fs {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}
