package sparkstmt

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/catalog"
	"sluice/internal/expr"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// StaticPartition is INSERT's PARTITION (k = v, ...) clause checked
// against the table: its static columns, the leading partition columns,
// with their values cast to the columns' types.
type StaticPartition struct {
	// verb is INSERT INTO or INSERT OVERWRITE, for messages.
	verb  string
	names []string
	exprs []expr.Expr
	// values are exprs evaluated, one row each, for the sink to name the
	// partition folder an overwrite replaces.
	values []arrow.Array
}

// BindPartition checks s.Partition as Spark does: every partition column
// listed once, no other column, and static ones (k = v) before dynamic
// ones (k) in the table's partition order, since a static value below a
// dynamic one names no single folder. nil when there is no clause or it
// names no static value.
func (e *Runner) BindPartition(ctx context.Context, t *catalog.Table, s *sql.Insert) (*StaticPartition, error) {
	if s.Partition == nil {
		return nil, nil
	}
	name, verb := t.Spec.Name, "INSERT INTO"
	if s.Overwrite {
		verb = "INSERT OVERWRITE"
	}
	given := map[string]*sql.PartitionValue{}
	for _, pv := range s.Partition {
		i := slices.IndexFunc(t.Spec.PartitionBy, func(c string) bool { return strings.EqualFold(c, pv.Column) })
		if i < 0 {
			return nil, usererr.Errorf(usererr.Invalid, "%s %s: %s is not a partition column of the table (%s)", verb, name, pv.Column, partitionList(t.Spec.PartitionBy))
		}
		k := t.Spec.PartitionBy[i]
		if given[k] != nil {
			return nil, usererr.Errorf(usererr.Invalid, "%s %s: partition column %s is listed twice", verb, name, pv.Column)
		}
		given[k] = pv
	}
	if len(given) != len(t.Spec.PartitionBy) {
		var got []string
		for _, pv := range s.Partition {
			got = append(got, pv.Column)
		}
		return nil, usererr.Errorf(usererr.Invalid, "%s %s: PARTITION (%s) must list every partition column of the table (%s)", verb, name, strings.Join(got, ", "), partitionList(t.Spec.PartitionBy))
	}
	sp := &StaticPartition{verb: verb}
	b := plan.NewBinder(ctx, e.h.Tables())
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	dynamic := ""
	for _, k := range t.Spec.PartitionBy {
		pv := given[k]
		if pv.Value == nil {
			dynamic = k
			continue
		}
		if dynamic != "" {
			return nil, usererr.Errorf(usererr.Invalid, "%s %s: static partition column %s comes after dynamic partition column %s; give %s a value too", verb, name, k, dynamic, dynamic)
		}
		var f arrow.Field
		if i := slices.IndexFunc(t.Spec.Schema.Fields(), func(f arrow.Field) bool { return strings.EqualFold(f.Name, k) }); i >= 0 {
			f = t.Spec.Schema.Field(i)
		}
		v, err := b.BindConstant(pv.Value)
		if err != nil {
			return nil, fmt.Errorf("%s %s: the value of partition column %s: %w", verb, name, k, err)
		}
		raw, err := v.Eval(ctx, one)
		if err != nil {
			return nil, usererr.Errorf(usererr.Invalid, "%s %s: the value of partition column %s: %v", verb, name, k, err)
		}
		arr := raw
		if !arrow.TypeEqual(v.Type(), f.Type) {
			if v, err = expr.Cast(v, f.Type); err != nil {
				return nil, usererr.Errorf(usererr.Invalid, "%s %s: the value of partition column %s: %v", verb, name, k, err)
			}
			if arr, err = v.Eval(ctx, one); err != nil {
				return nil, usererr.Errorf(usererr.Invalid, "%s %s: the value of partition column %s: %v", verb, name, k, err)
			}
			// A value that does not fit its column names no folder; Spark
			// refuses it rather than writing NULL's folder.
			if raw.DataType().ID() != arrow.NULL && raw.IsValid(0) && !arr.IsValid(0) {
				return nil, usererr.Errorf(usererr.Invalid, "%s %s: the value %s of partition column %s cannot be cast to %s", verb, name, pv.Value, k, types.SQLName(f.Type))
			}
		}
		sp.names = append(sp.names, f.Name)
		sp.exprs = append(sp.exprs, v)
		sp.values = append(sp.values, arr)
	}
	if len(sp.names) == 0 {
		return nil, nil
	}
	return sp, nil
}

// partitionList names a table's partition columns for a message.
func partitionList(cols []string) string {
	if len(cols) == 0 {
		return "it is not partitioned"
	}
	return "partitioned by " + strings.Join(cols, ", ")
}

// Apply adds the static values to the query's columns and returns the
// column list to conform it to: the listed columns (or the table's
// others, in order) followed by the static ones.
func (sp *StaticPartition) Apply(n plan.Node, t *catalog.Table, cols []string) (plan.Node, []string, error) {
	name := t.Spec.Name
	static := func(c string) bool {
		return slices.ContainsFunc(sp.names, func(s string) bool { return strings.EqualFold(s, c) })
	}
	if cols == nil {
		for _, f := range t.Spec.Schema.Fields() {
			if !static(f.Name) {
				cols = append(cols, f.Name)
			}
		}
	} else {
		for _, c := range cols {
			if static(c) {
				return nil, nil, usererr.Errorf(usererr.Invalid, "%s %s: column %s is listed but PARTITION gives it a value", sp.verb, name, c)
			}
		}
	}
	src := n.Schema()
	if src.NumFields() != len(cols) {
		return nil, nil, usererr.Errorf(usererr.Invalid, "%s %s: the query has %d columns but %d are written besides the static partition columns (%s)",
			sp.verb, name, src.NumFields(), len(cols), strings.Join(sp.names, ", "))
	}
	exprs := make([]expr.Expr, 0, src.NumFields()+len(sp.exprs))
	names := make([]string, 0, cap(exprs))
	for i, f := range src.Fields() {
		exprs = append(exprs, expr.Col(i, f.Name, f.Type))
		names = append(names, f.Name)
	}
	exprs = append(exprs, sp.exprs...)
	names = append(names, sp.names...)
	return &plan.Project{Input: n, Exprs: exprs, Names: names}, append(slices.Clip(cols), sp.names...), nil
}
