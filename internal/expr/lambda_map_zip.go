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

// mapZipType types map_zip_with(m1, m2, (k, v1, v2) -> ...): the keys'
// common type, the lambda's values.
func (h *HigherOrderExpr) mapZipType() (Expr, error) {
	if len(h.args) != 2 || len(h.lambdas) != 1 {
		return nil, fmt.Errorf("map_zip_with takes two maps and a lambda (k, v1, v2) -> ...")
	}
	kt := arrow.DataType(types.Null)
	for _, a := range h.args {
		mt, ok := a.Type().(*arrow.MapType)
		if !ok {
			if a.Type().ID() != arrow.NULL {
				return nil, fmt.Errorf("map_zip_with: arguments must be maps, not %s", types.SQLName(a.Type()))
			}
			continue
		}
		c, ok := types.Common(kt, mt.KeyType())
		if !ok {
			return nil, fmt.Errorf("map_zip_with: the maps' keys %s and %s have no common type", types.SQLName(kt), types.SQLName(mt.KeyType()))
		}
		kt = c
	}
	h.typ = arrow.MapOf(kt, h.lambdas[0].Body.Type())
	return h, nil
}

// mapZipWith merges two maps by key with the lambda (k, v1, v2): the keys
// of the first map in order, then those only in the second, a value
// missing from one map being NULL. Either map NULL gives NULL, as in
// Spark.
func (h *HigherOrderExpr) mapZipWith(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	var maps [2]*array.Map
	for i := range maps {
		a, err := h.args[i].Eval(ctx, batch)
		if err != nil {
			return nil, err
		}
		defer a.Release()
		m, ok := a.(*array.Map)
		if !ok {
			return array.MakeArrayOfNull(memory.DefaultAllocator, h.typ, a.Len()), nil
		}
		maps[i] = m
	}
	n := maps[0].Len()
	var el elements
	keySrc := array.NewInt32Builder(memory.DefaultAllocator) // index into keys of map 0 or, past len, map 1
	defer keySrc.Release()
	var idx [2]*array.Int32Builder
	for i := range idx {
		idx[i] = array.NewInt32Builder(memory.DefaultAllocator)
		defer idx[i].Release()
	}
	kt := h.typ.(*arrow.MapType).KeyType()
	k0, err := castTo(ctx, kt, maps[0].Keys())
	if err != nil {
		return nil, fmt.Errorf("map_zip_with: %w", err)
	}
	defer k0.Release()
	k1, err := castTo(ctx, kt, maps[1].Keys())
	if err != nil {
		return nil, fmt.Errorf("map_zip_with: %w", err)
	}
	defer k1.Release()
	keyOf := func(a arrow.Array, i int) string { return fmt.Sprintf("%v", types.ValueAt(a, i)) }
	n0 := int32(k0.Len())
	for r := 0; r < n; r++ {
		if maps[0].IsNull(r) || maps[1].IsNull(r) {
			continue
		}
		b0, e0 := maps[0].ValueOffsets(r)
		b1, e1 := maps[1].ValueOffsets(r)
		second := map[string]int64{}
		var order []string
		for j := b1; j < e1; j++ {
			k := keyOf(k1, int(j))
			if _, dup := second[k]; !dup {
				second[k] = j
				order = append(order, k)
			}
		}
		seen := map[string]bool{}
		for j := b0; j < e0; j++ {
			k := keyOf(k0, int(j))
			if seen[k] {
				continue
			}
			seen[k] = true
			el.parent = append(el.parent, int32(r))
			keySrc.Append(int32(j))
			idx[0].Append(int32(j))
			if o, ok := second[k]; ok {
				idx[1].Append(int32(o))
			} else {
				idx[1].AppendNull()
			}
		}
		for _, k := range order {
			if seen[k] {
				continue
			}
			j := second[k]
			el.parent = append(el.parent, int32(r))
			keySrc.Append(n0 + int32(j))
			idx[0].AppendNull()
			idx[1].Append(int32(j))
		}
	}
	allKeys, err := array.Concatenate([]arrow.Array{k0, k1}, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("map_zip_with: %w", err)
	}
	defer allKeys.Release()
	ka := keySrc.NewArray()
	defer ka.Release()
	keys, err := compute.TakeArray(ctx, allKeys, ka)
	if err != nil {
		return nil, fmt.Errorf("map_zip_with: %w", err)
	}
	defer keys.Release()
	vals := []arrow.Array{keys}
	for i, m := range maps {
		ia := idx[i].NewArray()
		defer ia.Release()
		v, err := compute.TakeArray(ctx, m.Items(), ia)
		if err != nil {
			return nil, fmt.Errorf("map_zip_with: %w", err)
		}
		defer v.Release()
		vals = append(vals, v)
	}
	parent := int32Array(el.parent)
	defer parent.Release()
	res, err := evalBody(ctx, h.lambdas[0], batch, parent, vals)
	if err != nil {
		return nil, fmt.Errorf("map_zip_with: %w", err)
	}
	defer res.Release()
	fields := h.typ.(*arrow.MapType).Elem().(*arrow.StructType).Fields()
	entries, err := array.NewStructArrayWithFields([]arrow.Array{keys, res}, fields)
	if err != nil {
		return nil, fmt.Errorf("map_zip_with: %w", err)
	}
	defer entries.Release()
	isNull := func(r int) bool { return maps[0].IsNull(r) || maps[1].IsNull(r) }
	return buildList(n, isNull, h.typ, el, nil, entries), nil
}

// castTo gives a as t (a itself, retained, when it already is).
func castTo(ctx context.Context, t arrow.DataType, a arrow.Array) (arrow.Array, error) {
	if arrow.TypeEqual(a.DataType(), t) {
		a.Retain()
		return a, nil
	}
	return compute.CastArray(ctx, a, compute.SafeCastOptions(t))
}
