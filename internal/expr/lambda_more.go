package expr

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// isMapFunc lists the higher-order functions over a map, whose lambda
// takes (key, value).
var isMapFunc = map[string]bool{"map_filter": true, "transform_values": true, "transform_keys": true, "map_zip_with": true}

// arrayArgs is how many leading arguments of name are arrays.
func arrayArgs(name string) int {
	if name == "zip_with" {
		return 2
	}
	return 1
}

// mapType types map_filter, transform_values and transform_keys.
func (h *HigherOrderExpr) mapType() (Expr, error) {
	if h.Name == "map_zip_with" {
		return h.mapZipType()
	}
	if len(h.args) != 1 || len(h.lambdas) != 1 {
		return nil, fmt.Errorf("%s takes a map and a lambda (k, v) -> ...", h.Name)
	}
	mt, ok := h.args[0].Type().(*arrow.MapType)
	if !ok {
		if h.args[0].Type().ID() != arrow.NULL {
			return nil, fmt.Errorf("%s: the first argument must be a map, not %s", h.Name, types.SQLName(h.args[0].Type()))
		}
		mt = arrow.MapOf(types.Null, types.Null)
	}
	body := h.lambdas[0].Body.Type()
	switch h.Name {
	case "map_filter":
		if body.ID() != arrow.BOOL && body.ID() != arrow.NULL {
			return nil, fmt.Errorf("map_filter: the lambda must return BOOLEAN, not %s", types.SQLName(body))
		}
		h.typ = mt
	case "transform_values":
		h.typ = arrow.MapOf(mt.KeyType(), body)
	case "transform_keys":
		h.typ = arrow.MapOf(body, mt.ItemType())
	}
	return h, nil
}

// evalMap evaluates the lambda over every (key, value) entry, then keeps
// the entries it is TRUE for (map_filter) or replaces values or keys.
func (h *HigherOrderExpr) evalMap(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	in, err := h.args[0].Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	m, ok := in.(*array.Map)
	if !ok { // a NULL literal
		return array.MakeArrayOfNull(memory.DefaultAllocator, h.typ, in.Len()), nil
	}
	el := flatten(m)
	parent, child := int32Array(el.parent), int32Array(el.child)
	defer parent.Release()
	defer child.Release()
	keys, err := compute.TakeArray(ctx, m.Keys(), child)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", h.Name, err)
	}
	defer keys.Release()
	items, err := compute.TakeArray(ctx, m.Items(), child)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", h.Name, err)
	}
	defer items.Release()
	res, err := evalBody(ctx, h.lambdas[0], batch, parent, []arrow.Array{keys, items})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", h.Name, err)
	}
	defer res.Release()
	var keep []bool
	switch h.Name {
	case "map_filter":
		keep = make([]bool, len(el.parent))
		var picked []int32
		b, _ := res.(*array.Boolean)
		for i := range keep {
			if b != nil && b.IsValid(i) && b.Value(i) {
				keep[i] = true
				picked = append(picked, int32(i))
			}
		}
		pa := int32Array(picked)
		defer pa.Release()
		var kk, ki arrow.Array
		if kk, err = compute.TakeArray(ctx, keys, pa); err != nil {
			return nil, fmt.Errorf("map_filter: %w", err)
		}
		defer kk.Release()
		if ki, err = compute.TakeArray(ctx, items, pa); err != nil {
			return nil, fmt.Errorf("map_filter: %w", err)
		}
		defer ki.Release()
		keys, items = kk, ki
	case "transform_values":
		items = res
	case "transform_keys":
		if res.NullN() > 0 {
			return nil, fmt.Errorf("transform_keys: a map key cannot be NULL")
		}
		keys = res
	}
	fields := h.typ.(*arrow.MapType).Elem().(*arrow.StructType).Fields()
	entries, err := array.NewStructArrayWithFields([]arrow.Array{keys, items}, fields)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", h.Name, err)
	}
	defer entries.Release()
	return rebuildList(m, h.typ, el, keep, entries), nil
}

// zipWith pairs the elements of two arrays by position, the shorter
// padded with NULL, and applies the lambda to each pair. Either array
// NULL gives NULL.
func (h *HigherOrderExpr) zipWith(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	var lists [2]*array.List
	for i := range lists {
		a, err := h.args[i].Eval(ctx, batch)
		if err != nil {
			return nil, err
		}
		defer a.Release()
		l, ok := a.(*array.List)
		if !ok {
			return array.MakeArrayOfNull(memory.DefaultAllocator, h.typ, a.Len()), nil
		}
		lists[i] = l
	}
	n := lists[0].Len()
	var el elements
	var idx [2]*array.Int32Builder
	for i := range idx {
		idx[i] = array.NewInt32Builder(memory.DefaultAllocator)
		defer idx[i].Release()
	}
	for r := 0; r < n; r++ {
		if lists[0].IsNull(r) || lists[1].IsNull(r) {
			continue
		}
		b0, e0 := lists[0].ValueOffsets(r)
		b1, e1 := lists[1].ValueOffsets(r)
		for j := int64(0); j < max(e0-b0, e1-b1); j++ {
			el.parent = append(el.parent, int32(r))
			for i, be := range [2][2]int64{{b0, e0}, {b1, e1}} {
				if be[0]+j < be[1] {
					idx[i].Append(int32(be[0] + j))
				} else {
					idx[i].AppendNull()
				}
			}
		}
	}
	var vals []arrow.Array
	for i, l := range lists {
		ia := idx[i].NewArray()
		defer ia.Release()
		v, err := compute.TakeArray(ctx, l.ListValues(), ia)
		if err != nil {
			return nil, fmt.Errorf("zip_with: %w", err)
		}
		defer v.Release()
		vals = append(vals, v)
	}
	parent := int32Array(el.parent)
	defer parent.Release()
	res, err := evalBody(ctx, h.lambdas[0], batch, parent, vals)
	if err != nil {
		return nil, fmt.Errorf("zip_with: %w", err)
	}
	defer res.Release()
	isNull := func(r int) bool { return lists[0].IsNull(r) || lists[1].IsNull(r) }
	return buildList(n, isNull, h.typ, el, nil, res), nil
}
