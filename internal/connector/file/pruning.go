package file

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/connector"
	"sluice/internal/connector/pushdown"
	"sluice/internal/expr"
	"sluice/internal/format"
	"sluice/internal/types"
)

// Pruning skips data a pushed filter rules out, at three levels:
//
//   - listing: when the filter pins the leading partition columns to
//     values (p = 'x', p IN ('x', 'y')), only those col=value/ folders are
//     listed;
//   - files: conjuncts over partition columns only are evaluated on one
//     row per file (its partition values) and a file is skipped unless the
//     result is TRUE, as WHERE would;
//   - Parquet row groups: conjuncts "column <op> literal" are checked
//     against each row group's min/max/null count.
//
// All three are conservative: the engine still applies the whole filter.

// onTable moves pred, over a projection's columns, onto the table's
// schema, dropping conjuncts over metadata columns; nil when none is left.
func onTable(pred expr.Expr, columns []string, table *arrow.Schema) expr.Expr {
	mapping := map[int]int{}
	for i, name := range columns {
		if j := fieldIndex(table, name); j >= 0 && name != connector.FileColumn && name != connector.RowColumn {
			mapping[i] = j
		}
	}
	var kept []expr.Expr
	for _, c := range expr.SplitConjuncts(pred) {
		ok := true
		for _, i := range expr.Columns(c) {
			if _, in := mapping[i]; !in {
				ok = false
			}
		}
		if ok {
			kept = append(kept, expr.Remap(c, mapping))
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return expr.AndAll(kept)
}

// andFilters combines an earlier pushed filter (maybe nil) with pred.
func andFilters(prev, pred expr.Expr) expr.Expr {
	if prev == nil {
		return pred
	}
	return expr.AndAll([]expr.Expr{prev, pred})
}

// statPred is a conjunct a row group's statistics can rule out.
type statPred struct {
	col string
	// op is one of = < <= > >= in between is_null.
	op   string
	vals []any
}

// splitFilter sorts the conjuncts of pred (over table) into those over
// partition columns only and those usable with column statistics.
func splitFilter(pred expr.Expr, table *arrow.Schema, isPart []bool) (parts []expr.Expr, stats []statPred) {
	for _, c := range expr.SplitConjuncts(pred) {
		cols := expr.Columns(c)
		onlyParts := len(cols) > 0
		for _, i := range cols {
			if i < 0 || i >= len(isPart) || !isPart[i] {
				onlyParts = false
			}
		}
		if onlyParts {
			parts = append(parts, c)
			continue
		}
		if sp, ok := toStatPred(c, table, isPart); ok {
			stats = append(stats, sp)
		}
	}
	return parts, stats
}

// toStatPred recognizes "col op lit" (either way round), "col BETWEEN lit
// AND lit", "col IN (lits)" and "col IS NULL" over data columns, seeing
// through casts between numbers (pushdown.NumericCasts).
func toStatPred(c expr.Expr, table *arrow.Schema, isPart []bool) (statPred, bool) {
	column := func(r pushdown.Ref) (string, bool) {
		return r.Column, len(r.Path) == 0 && r.Index < len(isPart) && !isPart[r.Index]
	}
	switch n := pushdown.Normalize(c, table, pushdown.NumericCasts).(type) {
	case pushdown.In:
		col, ok := column(n.Ref)
		if n.Not || !ok {
			return statPred{}, false
		}
		sp := statPred{col: col, op: "in"}
		for _, item := range n.Values {
			v, ok := statValue(item)
			if !ok {
				return statPred{}, false
			}
			sp.vals = append(sp.vals, v)
		}
		return sp, len(sp.vals) > 0
	case pushdown.Compare:
		col, ok := column(n.Ref)
		v, okV := statValue(n.Value)
		if ok && okV && n.Op != pushdown.Ne {
			return statPred{col: col, op: string(n.Op), vals: []any{v}}, true
		}
	case pushdown.Between:
		col, ok := column(n.Ref)
		lo, ok1 := statValue(n.Lo)
		hi, ok2 := statValue(n.Hi)
		if ok && ok1 && ok2 {
			return statPred{col: col, op: "between", vals: []any{lo, hi}}, true
		}
	case pushdown.IsNull:
		if col, ok := column(n.Ref); ok && !n.Not {
			return statPred{col: col, op: "is_null"}, true
		}
	}
	return statPred{}, false
}

// statValue returns a constant as statistics hold it (int64, float64,
// string, bool; TIMESTAMP as int64 micros), or ok == false.
func statValue(c pushdown.Value) (any, bool) {
	switch v := c.V.(type) {
	case int32: // INT, or DATE as days: statistics hold both as int64
		return int64(v), true
	case int64, float64, string, bool:
		return v, true
	case int:
		return int64(v), true
	}
	return nil, false
}

// compareStat orders two statistics values of the same family (numbers,
// in Spark's order with NaN largest; strings; bools); ok is false when
// they cannot be compared.
func compareStat(a, b any) (int, bool) {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmp3(x, y), true
		case float64:
			return types.FloatOrder(float64(x), y), true
		}
	case float64:
		switch y := b.(type) {
		case int64:
			return types.FloatOrder(x, float64(y)), true
		case float64:
			return types.FloatOrder(x, y), true
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), true
		}
	case bool:
		if y, ok := b.(bool); ok {
			switch {
			case x == y:
				return 0, true
			case !x:
				return -1, true
			}
			return 1, true
		}
	}
	return 0, false
}

func cmp3[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// normStat widens a statistics value to the families compareStat knows.
func normStat(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case float32:
		return float64(x)
	}
	return v
}

// mayMatch reports whether a row group with these statistics can hold a
// row for which p is TRUE. Unknown means yes.
func (p statPred) mayMatch(minV, maxV any, nulls int64) bool {
	if p.op == "is_null" {
		return nulls != 0
	}
	if minV == nil || maxV == nil {
		return true
	}
	minV, maxV = normStat(minV), normStat(maxV)
	lt := func(a, b any) bool { c, ok := compareStat(a, b); return ok && c < 0 }
	switch p.op {
	case "=":
		return !lt(p.vals[0], minV) && !lt(maxV, p.vals[0])
	case "<":
		c, ok := compareStat(minV, p.vals[0])
		return !ok || c < 0
	case "<=":
		c, ok := compareStat(minV, p.vals[0])
		return !ok || c <= 0
	case ">":
		c, ok := compareStat(maxV, p.vals[0])
		return !ok || c > 0
	case ">=":
		c, ok := compareStat(maxV, p.vals[0])
		return !ok || c >= 0
	case "between":
		return !lt(maxV, p.vals[0]) && !lt(p.vals[1], minV)
	case "in":
		for _, v := range p.vals {
			if !lt(v, minV) && !lt(maxV, v) {
				return true
			}
		}
		return false
	}
	return true
}

// rowGroupFilter is the format.Options.RowGroupFilter for preds: a group
// is read unless some conjunct cannot match it.
func rowGroupFilter(preds []statPred) func(format.RowGroupStats) bool {
	return func(st format.RowGroupStats) bool {
		for _, p := range preds {
			minV, maxV, nulls, ok := st.Column(p.col)
			if ok && !p.mayMatch(minV, maxV, nulls) {
				return false
			}
		}
		return true
	}
}

// pruneFiles keeps the files whose partition values make every partition
// conjunct TRUE. All files are judged in one batch: one row per file.
func (s *Source) pruneFiles(ctx context.Context, files []fileEntry) ([]fileEntry, error) {
	if len(s.partPreds) == 0 || len(files) == 0 {
		return files, nil
	}
	cols := make([]arrow.Array, s.table.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	rows := make([][]any, len(files))
	for i, f := range files {
		r, err := s.partitionRow(f.Key)
		if err != nil {
			return nil, err
		}
		rows[i] = r
	}
	for pi, ti := range s.partIdx {
		b := array.NewBuilder(s.mem, s.table.Field(ti).Type)
		for _, r := range rows {
			if err := appendValue(b, r[pi]); err != nil {
				b.Release()
				return nil, err
			}
		}
		cols[ti] = b.NewArray()
		b.Release()
	}
	for i, f := range s.table.Fields() {
		if cols[i] == nil {
			cols[i] = array.MakeArrayOfNull(s.mem, f.Type, len(files))
		}
	}
	batch := array.NewRecordBatch(s.table, cols, int64(len(files)))
	defer batch.Release()
	keep := make([]bool, len(files))
	for i := range keep {
		keep[i] = true
	}
	for _, p := range s.partPreds {
		res, err := p.Eval(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("evaluating %s: %w", p, err)
		}
		bools, ok := res.(*array.Boolean)
		if !ok {
			res.Release()
			return nil, fmt.Errorf("evaluating %s: not a BOOLEAN", p)
		}
		for i := range keep {
			if bools.IsNull(i) || !bools.Value(i) {
				keep[i] = false
			}
		}
		res.Release()
	}
	out := make([]fileEntry, 0, len(files))
	for i, f := range files {
		if keep[i] {
			out = append(out, f)
		}
	}
	return out, nil
}

// appendValue appends one partition value (as partitionValue returns it).
func appendValue(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	switch bb := b.(type) {
	case *array.StringBuilder:
		bb.Append(v.(string))
	case *array.Int32Builder:
		bb.Append(v.(int32))
	case *array.Int64Builder:
		bb.Append(v.(int64))
	case *array.Float64Builder:
		bb.Append(v.(float64))
	case *array.BooleanBuilder:
		bb.Append(v.(bool))
	case *array.Date32Builder:
		bb.Append(arrow.Date32(v.(int32)))
	case *array.TimestampBuilder:
		bb.Append(arrow.Timestamp(v.(int64)))
	default:
		return fmt.Errorf("partition column of type %s is not supported", types.SQLName(b.Type()))
	}
	return nil
}

// oneSpelling reports whether v is the same text in every writer's
// folder names: unreserved ASCII only (RFC 3986: letters, digits, -._~).
func oneSpelling(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return v != ""
}

// maxListPrefixes bounds listing-time pruning: beyond it, one listing of
// the whole location is cheaper than many small ones.
const maxListPrefixes = 256

// partitionPrefixes returns the store prefixes to list when the filter
// pins the leading partition columns to literal values, or nil to list
// everything. It only narrows when the location's first file shows the
// partition folders in PartitionBy order under their exact names, so a
// "Year=2026" folder or a zero-padded month is never missed: integer
// columns are not narrowed at all, as "month=01" and month = 1 match in
// SQL but not as text.
func (s *Source) partitionPrefixes(ctx context.Context) ([]string, error) {
	if len(s.partPreds) == 0 || s.loc.glob != nil {
		return nil, nil
	}
	var values [][]string
	for _, ti := range s.partIdx {
		vals := pinnedValues(s.partPreds, s.table, ti)
		if vals == nil {
			break
		}
		values = append(values, vals)
	}
	if len(values) == 0 {
		return nil, nil
	}
	first, ok, err := s.loc.firstFile(ctx, &s.sopts)
	if err != nil || !ok {
		return nil, err
	}
	if len(first.parts) < len(values) {
		return nil, nil
	}
	for i := range values {
		if n := s.table.Field(s.partIdx[i]).Name; first.parts[i].Name != n || !oneSpelling(n) {
			return nil, nil
		}
	}
	prefixes := []string{s.loc.base}
	for i, vals := range values {
		name := s.table.Field(s.partIdx[i]).Name
		if len(prefixes)*len(vals) > maxListPrefixes {
			break
		}
		next := make([]string, 0, len(prefixes)*len(vals))
		for _, p := range prefixes {
			for _, v := range vals {
				next = append(next, p+name+"="+v+"/")
			}
		}
		prefixes = next
	}
	return prefixes, nil
}

// pinnedValues returns the folder texts a conjunct "col = lit" or "col IN
// (lits)" allows for table column ti, or nil.
//
// Writers spell one value differently in a folder name: Hive and Spark
// escape only "#%'*/:=?\{[]^ and control bytes (New York, Zürich), pyarrow
// and pandas percent-encode everything but unreserved ASCII (New%20York,
// Z%C3%BCrich). A value is narrowed to a folder prefix only when every
// writer spells it as is; any other value lists the whole location and
// prunes file by file on the decoded folder values, so pruning never
// changes an answer.
func pinnedValues(preds []expr.Expr, table *arrow.Schema, ti int) []string {
	t := table.Field(ti).Type
	if t.ID() != arrow.STRING && t.ID() != arrow.DATE32 {
		return nil
	}
	folder := func(c pushdown.Value) (string, bool) {
		switch v := c.V.(type) {
		case string:
			if t.ID() == arrow.STRING && oneSpelling(v) {
				return v, true
			}
		case int32:
			if t.ID() == arrow.DATE32 && c.Type.ID() == arrow.DATE32 {
				return types.FormatDate(v), true
			}
		}
		return "", false
	}
	// Folder names hold the stored text: no cast is seen through.
	isCol := func(r pushdown.Ref) bool { return r.Index == ti && len(r.Path) == 0 }
	for _, p := range preds {
		switch n := pushdown.Normalize(p, table, nil).(type) {
		case pushdown.In:
			if n.Not || !isCol(n.Ref) {
				continue
			}
			var out []string
			for _, item := range n.Values {
				v, ok := folder(item)
				if !ok {
					out = nil
					break
				}
				out = append(out, v)
			}
			if out != nil {
				return out
			}
		case pushdown.Compare:
			if n.Op != pushdown.Eq || !isCol(n.Ref) {
				continue
			}
			if v, ok := folder(n.Value); ok {
				return []string{v}
			}
		}
	}
	return nil
}
