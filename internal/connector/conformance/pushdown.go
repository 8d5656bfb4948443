package conformance

import (
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/expr/functions"
)

// pushdown checks that what a source does with a pushed projection,
// filter or aggregate never changes the answer: reading with it (and
// re-applying the filter, as the engine does) gives the rows reading
// everything and filtering in the engine gives.
func (c *target) pushdown(t *testing.T) {
	schema := tableSchema(c.caps().Types, c.caps().Limits)
	spec := c.table(t, "pushdown", schema, nil)
	data := roundTripData(schema)
	c.write(t, spec, 1, data...)
	full := c.source(t, spec)
	all := ReadAll(t, full)
	_, projects := full.(connector.ProjectionPusher)
	_, filters := full.(connector.FilterPusher)
	_, aggregates := full.(connector.AggregatePusher)
	if !projects && !filters && !aggregates {
		t.Skipf("%s pushes nothing down", c.f.Name)
	}
	if projects {
		c.runCheck(t, "projection", func(t *testing.T) { c.checkProjections(t, full, all) })
	}
	if filters {
		c.runCheck(t, "filter", func(t *testing.T) {
			preds := predicates(t, schema, data)
			names := make([]string, 0, len(preds))
			for n := range preds {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, name := range names {
				c.runCheck(t, name, func(t *testing.T) { checkFilter(t, full, all, preds[name]) })
			}
		})
	}
	if projects && filters {
		c.runCheck(t, "projection then filter", func(t *testing.T) { c.checkProjectThenFilter(t, full, all, schema, data) })
	}
	if aggregates {
		c.runCheck(t, "aggregate", func(t *testing.T) { c.checkAggregates(t, full, all, schema) })
	}
}

// checkFilter compares the rows pred keeps of a filtered read and of a
// full read.
func checkFilter(t *testing.T, full connector.Source, all []arrow.RecordBatch, pred expr.Expr) {
	t.Helper()
	pushed, err := full.(connector.FilterPusher).PushFilter(pred)
	if err != nil {
		t.Fatalf("PushFilter(%s): %v", pred, err)
	}
	sameSchema(t, pushed.Schema(), full.Schema())
	got := ReadAll(t, pushed)
	diff(t, exactRows(t, got, pred), exactRows(t, all, pred))
	if d, ok := pushed.(connector.Describer); ok {
		t.Logf("%d rows read for %s: %s", count(got), pred, d.Describe())
	}
}

// checkProjections pushes each column alone, then several in another
// order, and compares with the full read's columns.
func (c *target) checkProjections(t *testing.T, full connector.Source, all []arrow.RecordBatch) {
	schema := full.Schema()
	sets := [][]string{}
	for _, f := range schema.Fields() {
		sets = append(sets, []string{f.Name})
	}
	var rev []string
	for i := schema.NumFields() - 1; i >= 0; i -= 3 {
		rev = append(rev, schema.Field(i).Name)
	}
	sets = append(sets, rev, []string{})
	for _, cols := range sets {
		name := "[" + strings.Join(cols, ",") + "]"
		c.runCheck(t, name, func(t *testing.T) {
			p, err := full.(connector.ProjectionPusher).PushProjection(cols)
			if err != nil {
				t.Fatalf("PushProjection(%v): %v", cols, err)
			}
			var fields []arrow.Field
			for _, n := range cols {
				fields = append(fields, schema.Field(schema.FieldIndices(n)[0]))
			}
			sameSchema(t, p.Schema(), arrow.NewSchema(fields, nil))
			got := ReadAll(t, p)
			if len(cols) == 0 {
				if count(got) != count(all) {
					t.Errorf("projecting no columns read %d rows, want %d", count(got), count(all))
				}
				return
			}
			var want []arrow.RecordBatch
			for _, b := range all {
				want = append(want, pick(t, b, fields))
			}
			diff(t, exactRows(t, got, nil), exactRows(t, want, nil))
		})
	}
}

// checkProjectThenFilter projects two columns then filters on the
// second, as the planner pushes them.
func (c *target) checkProjectThenFilter(t *testing.T, full connector.Source, all []arrow.RecordBatch, schema *arrow.Schema, data []arrow.RecordBatch) {
	for _, f := range schema.Fields()[1:] {
		if !isScalar(f.Type) {
			continue
		}
		c.runCheck(t, f.Name, func(t *testing.T) {
			p, err := full.(connector.ProjectionPusher).PushProjection([]string{"id", f.Name})
			if err != nil {
				t.Fatal(err)
			}
			fp, ok := p.(connector.FilterPusher)
			if !ok {
				t.Fatalf("the projected source is no longer a FilterPusher")
			}
			v := literals(data, schema.FieldIndices(f.Name)[0])
			if len(v) == 0 {
				t.Skip("no value")
			}
			pred, err := expr.Call("=", expr.Col(1, f.Name, f.Type), v[0])
			if err != nil {
				t.Skipf("%s = %s: %v", f.Name, v[0], err)
			}
			pushed, err := fp.PushFilter(pred)
			if err != nil {
				t.Fatal(err)
			}
			fields := []arrow.Field{schema.Field(0), f}
			var want []arrow.RecordBatch
			for _, b := range all {
				want = append(want, pick(t, b, fields))
			}
			diff(t, exactRows(t, ReadAll(t, pushed), pred), exactRows(t, want, pred))
		})
	}
}

func isScalar(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.MAP, arrow.STRUCT:
		return false
	}
	return true
}

// literals are up to three distinct non-NULL values of column col of
// data, as literals, smallest seed first.
func literals(data []arrow.RecordBatch, col int) []expr.Expr {
	seen := map[string]bool{}
	var out []expr.Expr
	for _, b := range data {
		a := b.Column(col)
		for i := 0; i < a.Len() && len(out) < 3; i++ {
			if a.IsNull(i) || seen[exact(a, i)] {
				continue
			}
			seen[exact(a, i)] = true
			if l, err := expr.Lit(functions.ScalarValue(a, i), a.DataType()); err == nil {
				out = append(out, l)
			}
		}
	}
	return out
}

// predicates is the filter set: on every scalar column, comparisons both
// ways round, IN and NOT IN, IS [NOT] NULL, NOT, OR with IS NULL and a
// range; on a struct field; and across columns with AND, OR and NOT.
// Predicates the engine cannot build for a type (ordering BOOLEAN, say)
// are left out.
func predicates(t *testing.T, schema *arrow.Schema, data []arrow.RecordBatch) map[string]expr.Expr {
	out := map[string]expr.Expr{}
	add := func(name string, build func() (expr.Expr, error)) {
		e, err := build()
		if err != nil {
			t.Logf("left out %s: %v", name, err)
			return
		}
		out[name] = e
	}
	call := func(name string, args ...expr.Expr) func() (expr.Expr, error) {
		return func() (expr.Expr, error) { return expr.Call(name, args...) }
	}
	combine := func(name string, parts ...func() (expr.Expr, error)) func() (expr.Expr, error) {
		return func() (expr.Expr, error) {
			args := make([]expr.Expr, len(parts))
			for i, p := range parts {
				e, err := p()
				if err != nil {
					return nil, err
				}
				args[i] = e
			}
			return expr.Call(name, args...)
		}
	}
	// first is one simple predicate per column, for the cross-column ones.
	first := map[string]func() (expr.Expr, error){}
	var scalars []string
	for i, f := range schema.Fields() {
		if !isScalar(f.Type) {
			continue
		}
		col := expr.Col(i, f.Name, f.Type)
		v := literals(data, i)
		if len(v) < 2 {
			continue
		}
		a, b := v[0], v[1]
		n := f.Name + " "
		scalars = append(scalars, f.Name)
		first[f.Name] = call(">=", col, a)
		for _, op := range []string{"=", "<>", "<", "<=", ">", ">="} {
			add(n+op+" v", call(op, col, a))
			add("v "+op+" "+f.Name, call(op, a, col))
		}
		add(n+"in", func() (expr.Expr, error) { return expr.In(col, []expr.Expr{a, b}, false) })
		add(n+"not in", func() (expr.Expr, error) { return expr.In(col, []expr.Expr{a, b}, true) })
		add(n+"is null", call("is_null", col))
		add(n+"is not null", call("is_not_null", col))
		add(n+"not =", combine("not", call("=", col, a)))
		add(n+"= or is null", combine("or", call("=", col, a), call("is_null", col)))
		add(n+"range", combine("and", call(">=", col, a), call("<=", col, b)))
		add(n+"range both ways", combine("and", call("<", a, col), call(">", b, col)))
	}
	if idx := schema.FieldIndices("s_all"); len(idx) > 0 {
		st := schema.Field(idx[0]).Type.(*arrow.StructType)
		for _, f := range st.Fields() {
			add("s_all."+f.Name+" is not null", func() (expr.Expr, error) {
				fe, err := expr.Field(expr.Col(idx[0], "s_all", st), f.Name)
				if err != nil {
					return nil, err
				}
				return expr.Call("is_not_null", fe)
			})
		}
	}
	for i := 0; i+1 < len(scalars); i++ {
		x, y := scalars[i], scalars[i+1]
		if first[x] == nil || first[y] == nil {
			continue
		}
		add(x+" and "+y, combine("and", first[x], first[y]))
		add(x+" or "+y, combine("or", first[x], first[y]))
		add("not ("+x+" and "+y+")", combine("not", combine("and", first[x], first[y])))
	}
	if len(out) == 0 {
		t.Fatalf("no predicate could be built over %s", schema)
	}
	return out
}
