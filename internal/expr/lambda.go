package expr

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// LambdaScope identifies one lambda's parameters. Its values travel in
// the context rather than as batch columns, so that column pruning and
// remapping, which rewrite Column indices, never see them.
type LambdaScope struct{ names []string }

// lambdaKey holds the []lambdaBinding of the lambdas being evaluated,
// outermost first.
type lambdaKey struct{}

type lambdaBinding struct {
	scope *LambdaScope
	vals  []arrow.Array
}

// withLambda binds s to vals in ctx, for a body evaluated on a batch of
// the current one's rows rows (nil: the same rows): enclosing lambdas'
// values are taken by rows so that a nested body can still read them.
func withLambda(ctx context.Context, rows arrow.Array, s *LambdaScope, vals []arrow.Array) (context.Context, func(), error) {
	outer, _ := ctx.Value(lambdaKey{}).([]lambdaBinding)
	bs := make([]lambdaBinding, 0, len(outer)+1)
	var taken []arrow.Array
	release := func() {
		for _, a := range taken {
			a.Release()
		}
	}
	for _, b := range outer {
		if rows == nil {
			bs = append(bs, b)
			continue
		}
		nb := lambdaBinding{scope: b.scope}
		for _, v := range b.vals {
			t, err := compute.TakeArray(ctx, v, rows)
			if err != nil {
				release()
				return nil, nil, err
			}
			taken = append(taken, t)
			nb.vals = append(nb.vals, t)
		}
		bs = append(bs, nb)
	}
	bs = append(bs, lambdaBinding{scope: s, vals: vals})
	return context.WithValue(ctx, lambdaKey{}, bs), release, nil
}

// NewLambdaScope returns the scope of a lambda with these parameters.
func NewLambdaScope(names ...string) *LambdaScope { return &LambdaScope{names: names} }

// LambdaVar is parameter Slot of a lambda: the array it is bound to for
// the batch the lambda body is evaluated on.
type LambdaVar struct {
	scope *LambdaScope
	Slot  int
	typ   arrow.DataType
}

var _ Expr = (*LambdaVar)(nil)

// Var returns parameter slot of s, of type t.
func (s *LambdaScope) Var(slot int, t arrow.DataType) Expr {
	return &LambdaVar{scope: s, Slot: slot, typ: t}
}

func (v *LambdaVar) Type() arrow.DataType { return v.typ }

func (v *LambdaVar) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	var vals []arrow.Array
	bs, _ := ctx.Value(lambdaKey{}).([]lambdaBinding)
	for _, b := range bs {
		if b.scope == v.scope {
			vals = b.vals
		}
	}
	if v.Slot >= len(vals) || vals[v.Slot].Len() != int(batch.NumRows()) {
		return nil, fmt.Errorf("lambda parameter %s is not usable here", v.String())
	}
	vals[v.Slot].Retain()
	return vals[v.Slot], nil
}

func (v *LambdaVar) String() string           { return types.QuoteIdent(v.scope.names[v.Slot]) }
func (v *LambdaVar) Children() []Expr         { return nil }
func (v *LambdaVar) withChildren([]Expr) Expr { return v }

// Lambda is a bound lambda: its scope and its body.
type Lambda struct {
	Scope *LambdaScope
	Body  Expr
}

// HigherOrderExpr is a function over an array with lambda arguments:
// transform, filter, exists, forall, aggregate.
type HigherOrderExpr struct {
	Name    string
	args    []Expr // the array, then aggregate's zero
	lambdas []Lambda
	typ     arrow.DataType
}

var _ Expr = (*HigherOrderExpr)(nil)

// HigherOrder builds name(args..., lambdas...); the binder has bound each
// lambda body with its parameters' types (element, then index INT, for
// transform; accumulator, element for aggregate's merge).
func HigherOrder(name string, args []Expr, lambdas []Lambda) (Expr, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%s needs an array argument", name)
	}
	h := &HigherOrderExpr{Name: name, args: args, lambdas: lambdas}
	if isMapFunc[name] {
		return h.mapType()
	}
	if len(args) < arrayArgs(name) {
		return nil, fmt.Errorf("%s needs %d array arguments", name, arrayArgs(name))
	}
	for _, a := range args[:arrayArgs(name)] {
		if _, ok := a.Type().(*arrow.ListType); !ok && a.Type().ID() != arrow.NULL {
			return nil, fmt.Errorf("%s: the first argument must be an array, not %s", name, types.SQLName(a.Type()))
		}
	}
	switch name {
	case "array_sort":
		if len(args) != 1 || len(lambdas) != 1 {
			return nil, fmt.Errorf("array_sort takes an array and a comparator (l, r) -> INT")
		}
		if t := lambdas[0].Body.Type(); !types.IsInteger(t) && t.ID() != arrow.NULL {
			return nil, fmt.Errorf("array_sort: the comparator must return an integer, not %s", types.SQLName(t))
		}
		h.typ = args[0].Type()
	case "zip_with":
		if len(args) != 2 || len(lambdas) != 1 {
			return nil, fmt.Errorf("zip_with takes two arrays and a lambda (x, y) -> ...")
		}
		h.typ = types.Array(lambdas[0].Body.Type())
	case "transform":
		if len(args) != 1 || len(lambdas) != 1 {
			return nil, fmt.Errorf("transform takes an array and a lambda")
		}
		h.typ = types.Array(lambdas[0].Body.Type())
	case "filter", "exists", "forall":
		if len(args) != 1 || len(lambdas) != 1 {
			return nil, fmt.Errorf("%s takes an array and a lambda", name)
		}
		if t := lambdas[0].Body.Type(); t.ID() != arrow.BOOL && t.ID() != arrow.NULL {
			return nil, fmt.Errorf("%s: the lambda must return BOOLEAN, not %s", name, types.SQLName(t))
		}
		h.typ = args[0].Type()
		if name != "filter" {
			h.typ = types.Boolean
		}
	case "aggregate":
		if len(args) != 2 || len(lambdas) < 1 || len(lambdas) > 2 {
			return nil, fmt.Errorf("aggregate takes an array, a start value, a merge lambda and an optional finish lambda")
		}
		h.typ = lambdas[0].Body.Type()
		if !arrow.TypeEqual(h.typ, args[1].Type()) {
			// Each step's results are concatenated with the previous ones.
			return nil, fmt.Errorf("aggregate: the merge lambda returns %s but the start value is %s", types.SQLName(h.typ), types.SQLName(args[1].Type()))
		}
		if len(lambdas) == 2 {
			h.typ = lambdas[1].Body.Type()
		}
	default:
		return nil, fmt.Errorf("unknown higher-order function %s", name)
	}
	return h, nil
}

func (h *HigherOrderExpr) Type() arrow.DataType { return h.typ }

func (h *HigherOrderExpr) String() string {
	parts := make([]string, 0, len(h.args)+len(h.lambdas))
	for _, a := range h.args {
		parts = append(parts, a.String())
	}
	for _, l := range h.lambdas {
		ps := make([]string, len(l.Scope.names))
		for i, n := range l.Scope.names {
			ps[i] = types.QuoteIdent(n)
		}
		p := strings.Join(ps, ", ")
		if len(ps) != 1 {
			p = "(" + p + ")"
		}
		parts = append(parts, p+" -> "+l.Body.String())
	}
	return h.Name + "(" + strings.Join(parts, ", ") + ")"
}

func (h *HigherOrderExpr) Children() []Expr {
	out := append([]Expr{}, h.args...)
	for _, l := range h.lambdas {
		out = append(out, l.Body)
	}
	return out
}

func (h *HigherOrderExpr) withChildren(ch []Expr) Expr {
	c := *h
	c.args = append([]Expr{}, ch[:len(h.args)]...)
	c.lambdas = append([]Lambda{}, h.lambdas...)
	for i := range c.lambdas {
		c.lambdas[i].Body = ch[len(h.args)+i]
	}
	return &c
}

// elements flattens the non-NULL lists of arr: for each element, the row
// it belongs to, its position in the child array and its index in its
// list.
type elements struct {
	parent, child, index []int32
}

func flatten(l array.ListLike) elements {
	var e elements
	for r := 0; r < l.Len(); r++ {
		if l.IsNull(r) {
			continue
		}
		// ValueOffsets, unlike Offsets, allows for a sliced array.
		beg, end := l.ValueOffsets(r)
		for j := beg; j < end; j++ {
			e.parent = append(e.parent, int32(r))
			e.child = append(e.child, int32(j))
			e.index = append(e.index, int32(j-beg))
		}
	}
	return e
}

func int32Array(v []int32) arrow.Array {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(v, nil)
	return b.NewArray()
}

// takeBatch gives the rows idx of batch (an outer row once per element).
func takeBatch(ctx context.Context, batch arrow.RecordBatch, idx arrow.Array) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, batch.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i := range cols {
		c, err := compute.TakeArray(ctx, batch.Column(i), idx)
		if err != nil {
			return nil, fmt.Errorf("taking column %d: %w", i, err)
		}
		cols[i] = c
	}
	return array.NewRecordBatch(batch.Schema(), cols, int64(idx.Len())), nil
}

// evalBody evaluates l on the rows rows of batch with its parameters
// bound to vals (each as long as rows).
func evalBody(ctx context.Context, l Lambda, batch arrow.RecordBatch, rows arrow.Array, vals []arrow.Array) (arrow.Array, error) {
	inner, err := takeBatch(ctx, batch, rows)
	if err != nil {
		return nil, err
	}
	defer inner.Release()
	lctx, release, err := withLambda(ctx, rows, l.Scope, vals)
	if err != nil {
		return nil, err
	}
	defer release()
	return l.Body.Eval(lctx, inner)
}

func (h *HigherOrderExpr) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	switch {
	case h.Name == "map_zip_with":
		return h.mapZipWith(ctx, batch)
	case isMapFunc[h.Name]:
		return h.evalMap(ctx, batch)
	case h.Name == "zip_with":
		return h.zipWith(ctx, batch)
	case h.Name == "array_sort":
		return h.arraySort(ctx, batch)
	}
	in, err := h.args[0].Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	n := in.Len()
	l, ok := in.(*array.List)
	if !ok { // a NULL literal array
		return array.MakeArrayOfNull(memory.DefaultAllocator, h.typ, n), nil
	}
	el := flatten(l)
	parent, child := int32Array(el.parent), int32Array(el.child)
	defer parent.Release()
	defer child.Release()
	values, err := compute.TakeArray(ctx, l.ListValues(), child)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", h.Name, err)
	}
	defer values.Release()
	if h.Name == "aggregate" {
		return h.aggregate(ctx, batch, l, el, values)
	}
	vals := []arrow.Array{values}
	if len(h.lambdas[0].Scope.names) > 1 {
		idx := int32Array(el.index)
		defer idx.Release()
		vals = append(vals, idx)
	}
	res, err := evalBody(ctx, h.lambdas[0], batch, parent, vals)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", h.Name, err)
	}
	defer res.Release()
	switch h.Name {
	case "transform":
		return rebuildList(l, h.typ, el, nil, res), nil
	case "filter":
		keep := make([]bool, len(el.parent))
		var picked []int32
		for i := range keep {
			if b, ok := res.(*array.Boolean); ok && b.IsValid(i) && b.Value(i) {
				keep[i] = true
				picked = append(picked, int32(i))
			}
		}
		pa := int32Array(picked)
		defer pa.Release()
		kept, err := compute.TakeArray(ctx, values, pa)
		if err != nil {
			return nil, fmt.Errorf("filter: %w", err)
		}
		defer kept.Release()
		return rebuildList(l, h.typ, el, keep, kept), nil
	}
	return h.quantify(l, el, res), nil
}

// rebuildList makes a list with l's NULLs whose row r holds the elements
// of r that keep selects (all when keep is nil), which are vals in order.
func rebuildList(l array.ListLike, t arrow.DataType, el elements, keep []bool, vals arrow.Array) arrow.Array {
	return buildList(l.Len(), l.IsNull, t, el, keep, vals)
}

// buildList makes n lists, NULL where isNull, from the elements of el
// that keep selects, which are vals in order.
func buildList(n int, isNull func(int) bool, t arrow.DataType, el elements, keep []bool, vals arrow.Array) arrow.Array {
	counts := make([]int32, n)
	for i, p := range el.parent {
		if keep == nil || keep[i] {
			counts[p]++
		}
	}
	offs := make([]int32, n+1)
	valid := memory.NewResizableBuffer(memory.DefaultAllocator)
	valid.Resize(int(bitutil.BytesForBits(int64(n))))
	bits := valid.Bytes()
	for i := range bits {
		bits[i] = 0
	}
	nulls := 0
	for r := 0; r < n; r++ {
		offs[r+1] = offs[r] + counts[r]
		if isNull(r) {
			nulls++
		} else {
			bitutil.SetBit(bits, r)
		}
	}
	ob := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs))
	data := array.NewData(t, n, []*memory.Buffer{valid, ob}, []arrow.ArrayData{vals.Data()}, nulls, 0)
	defer data.Release()
	valid.Release()
	return array.MakeFromData(data)
}

// quantify folds each row's booleans: exists is TRUE if any is TRUE,
// else NULL if any is NULL, else FALSE; forall the dual.
func (h *HigherOrderExpr) quantify(l *array.List, el elements, res arrow.Array) arrow.Array {
	n := l.Len()
	sawTrue, sawFalse, sawNull := make([]bool, n), make([]bool, n), make([]bool, n)
	bres, _ := res.(*array.Boolean)
	for i, p := range el.parent {
		switch {
		case bres == nil || bres.IsNull(i):
			sawNull[p] = true
		case bres.Value(i):
			sawTrue[p] = true
		default:
			sawFalse[p] = true
		}
	}
	b := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer b.Release()
	for r := 0; r < n; r++ {
		decided, val := sawTrue[r], true
		if h.Name == "forall" {
			decided, val = sawFalse[r], false
		}
		switch {
		case l.IsNull(r):
			b.AppendNull()
		case decided:
			b.Append(val)
		case sawNull[r]:
			b.AppendNull()
		default:
			b.Append(!val)
		}
	}
	return b.NewArray()
}

// aggregate folds each row's elements into its start value, one element
// position at a time over all rows that have it, then applies finish.
func (h *HigherOrderExpr) aggregate(ctx context.Context, batch arrow.RecordBatch, l *array.List, el elements, values arrow.Array) (arrow.Array, error) {
	acc, err := h.args[1].Eval(ctx, batch)
	if err != nil {
		return nil, fmt.Errorf("aggregate: start value: %w", err)
	}
	defer func() { acc.Release() }()
	n := l.Len()
	start := make([]int32, n) // where row r's elements begin in values
	lens := make([]int32, n)
	for i, p := range el.parent {
		if lens[p] == 0 {
			start[p] = int32(i)
		}
		lens[p]++
	}
	merge := h.lambdas[0]
	for k := int32(0); ; k++ {
		var rows, pos []int32
		next := make([]int32, n)
		for r := 0; r < n; r++ {
			next[r] = int32(r)
			if lens[r] > k {
				next[r] = int32(n + len(rows))
				rows = append(rows, int32(r))
				pos = append(pos, start[r]+k)
			}
		}
		if len(rows) == 0 {
			break
		}
		if err := func() error {
			ra, pa := int32Array(rows), int32Array(pos)
			defer ra.Release()
			defer pa.Release()
			accK, err := compute.TakeArray(ctx, acc, ra)
			if err != nil {
				return err
			}
			defer accK.Release()
			elK, err := compute.TakeArray(ctx, values, pa)
			if err != nil {
				return err
			}
			defer elK.Release()
			res, err := evalBody(ctx, merge, batch, ra, []arrow.Array{accK, elK})
			if err != nil {
				return err
			}
			defer res.Release()
			cat, err := array.Concatenate([]arrow.Array{acc, res}, memory.DefaultAllocator)
			if err != nil {
				return err
			}
			defer cat.Release()
			na := int32Array(next)
			defer na.Release()
			out, err := compute.TakeArray(ctx, cat, na)
			if err != nil {
				return err
			}
			acc.Release()
			acc = out
			return nil
		}(); err != nil {
			return nil, fmt.Errorf("aggregate: %w", err)
		}
	}
	if len(h.lambdas) == 2 {
		fin := h.lambdas[1]
		lctx, release, err := withLambda(ctx, nil, fin.Scope, []arrow.Array{acc})
		if err != nil {
			return nil, fmt.Errorf("aggregate: finish: %w", err)
		}
		defer release()
		out, err := fin.Body.Eval(lctx, batch)
		if err != nil {
			return nil, fmt.Errorf("aggregate: finish: %w", err)
		}
		acc.Release()
		acc = out
	}
	// A NULL array gives NULL whatever the start value.
	ib := array.NewInt32Builder(memory.DefaultAllocator)
	defer ib.Release()
	for r := 0; r < n; r++ {
		if l.IsNull(r) {
			ib.AppendNull()
		} else {
			ib.Append(int32(r))
		}
	}
	idx := ib.NewArray()
	defer idx.Release()
	return compute.TakeArray(ctx, acc, idx)
}
