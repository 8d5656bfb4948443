package functions

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// Array and map functions of Spark beyond collections.go, row by row on
// []any (rowFn). Elements compare by value and type, so 1 and 1.0 in an
// ARRAY<DOUBLE> are one value.

func listArg(fn string, a Arg) (*arrow.ListType, error) {
	t := types.Normalize(a.Type)
	if t.ID() == arrow.NULL {
		return arrow.ListOf(types.Int), nil
	}
	lt, ok := t.(*arrow.ListType)
	if !ok {
		return nil, fmt.Errorf("function %s expects an ARRAY, got %s", fn, sqlName(a.Type))
	}
	return lt, nil
}

func elemKey(v any) string { return fmt.Sprintf("%T:%v", v, v) }

// arrayFn binds f(array, rest...) with the result type given by rt of
// the array type; the other arguments are cast by params.
func arrayFn(fn string, rt func(lt *arrow.ListType) arrow.DataType, params func(lt *arrow.ListType) []param, nullSafe bool, f func(lt *arrow.ListType, v []any) (any, error)) Binder {
	return func(args []Arg) (*Bound, error) {
		lt, err := listArg(fn, args[0])
		if err != nil {
			return nil, err
		}
		ps := append([]param{pTo(lt)}, params(lt)...)
		g := func(v []any) (any, error) { return f(lt, v) }
		if nullSafe {
			return rowFnNulls(fn, rt(lt), ps, g)(args)
		}
		return rowFn(fn, rt(lt), ps, g)(args)
	}
}

func sameList(lt *arrow.ListType) arrow.DataType { return lt }
func elemOf(lt *arrow.ListType) arrow.DataType   { return lt.Elem() }
func noParams(*arrow.ListType) []param           { return nil }
func elemParam(lt *arrow.ListType) []param       { return []param{pTo(lt.Elem())} }
func listParam(lt *arrow.ListType) []param       { return []param{pTo(lt)} }
func intParams(k int) func(*arrow.ListType) []param {
	return func(*arrow.ListType) []param {
		out := make([]param, k)
		for i := range out {
			out[i] = pInt
		}
		return out
	}
}

func items(v any) []any {
	if v == nil {
		return nil
	}
	return v.([]any)
}

var (
	bindArrayAppend = arrayFn("array_append", sameList, elemParam, true, func(lt *arrow.ListType, v []any) (any, error) {
		if v[0] == nil {
			return nil, nil
		}
		return append(append([]any{}, items(v[0])...), v[1]), nil
	})
	bindArrayPrepend = arrayFn("array_prepend", sameList, elemParam, true, func(lt *arrow.ListType, v []any) (any, error) {
		if v[0] == nil {
			return nil, nil
		}
		return append([]any{v[1]}, items(v[0])...), nil
	})
	bindArrayCompact = arrayFn("array_compact", sameList, noParams, false, func(lt *arrow.ListType, v []any) (any, error) {
		out := []any{}
		for _, e := range items(v[0]) {
			if e != nil {
				out = append(out, e)
			}
		}
		return out, nil
	})
	bindArrayDistinct = arrayFn("array_distinct", sameList, noParams, false, func(lt *arrow.ListType, v []any) (any, error) {
		return distinct(items(v[0]), nil, false), nil
	})
	bindArrayUnion = arrayFn("array_union", sameList, listParam, false, func(lt *arrow.ListType, v []any) (any, error) {
		return distinct(append(append([]any{}, items(v[0])...), items(v[1])...), nil, false), nil
	})
	bindArrayIntersect = arrayFn("array_intersect", sameList, listParam, false, func(lt *arrow.ListType, v []any) (any, error) {
		return distinct(items(v[0]), keySet(items(v[1])), true), nil
	})
	bindArrayExcept = arrayFn("array_except", sameList, listParam, false, func(lt *arrow.ListType, v []any) (any, error) {
		return distinct(items(v[0]), keySet(items(v[1])), false), nil
	})
	bindArrayRemove = arrayFn("array_remove", sameList, elemParam, false, func(lt *arrow.ListType, v []any) (any, error) {
		out := []any{}
		k := elemKey(v[1])
		for _, e := range items(v[0]) {
			if e == nil || elemKey(e) != k {
				out = append(out, e)
			}
		}
		return out, nil
	})
	// array_position: 1-based index of the first match, 0 if none.
	bindArrayPosition = arrayFn("array_position", func(*arrow.ListType) arrow.DataType { return types.BigInt }, elemParam, false, func(lt *arrow.ListType, v []any) (any, error) {
		k := elemKey(v[1])
		for i, e := range items(v[0]) {
			if e != nil && elemKey(e) == k {
				return int64(i + 1), nil
			}
		}
		return int64(0), nil
	})
	bindArrayMax = arrayFn("array_max", elemOf, noParams, false, func(lt *arrow.ListType, v []any) (any, error) { return extreme(items(v[0]), 1), nil })
	bindArrayMin = arrayFn("array_min", elemOf, noParams, false, func(lt *arrow.ListType, v []any) (any, error) { return extreme(items(v[0]), -1), nil })
	// array_join(arr, delim[, null_replacement]): NULLs are skipped unless
	// replaced.
	bindArrayJoin = func(args []Arg) (*Bound, error) {
		return rowFnNulls("array_join", types.String, ps(pTo(types.Array(types.String)), pString), func(v []any) (any, error) {
			if v[0] == nil || v[1] == nil {
				return nil, nil
			}
			var parts []string
			for _, e := range items(v[0]) {
				switch {
				case e != nil:
					parts = append(parts, e.(string))
				case len(v) == 3 && v[2] != nil:
					parts = append(parts, v[2].(string))
				}
			}
			return strings.Join(parts, v[1].(string)), nil
		})(args)
	}
	// array_insert(arr, pos, x): 1-based, negative from the end; past the
	// end pads with NULLs (Spark).
	bindArrayInsert = arrayFn("array_insert", sameList, func(lt *arrow.ListType) []param { return []param{pInt, pTo(lt.Elem())} }, true, func(lt *arrow.ListType, v []any) (any, error) {
		if v[0] == nil || v[1] == nil {
			return nil, nil
		}
		a := items(v[0])
		pos := v[1].(int64)
		if pos == 0 {
			return nil, fmt.Errorf("the position must not be 0")
		}
		var idx int64
		if pos > 0 {
			idx = pos - 1
		} else {
			idx = int64(len(a)) + pos + 1
		}
		if idx < 0 {
			pad := make([]any, -idx)
			return append(append([]any{v[2]}, pad...), a...), nil
		}
		out := append([]any{}, a...)
		for int64(len(out)) < idx {
			out = append(out, nil)
		}
		out = append(out[:idx], append([]any{v[2]}, out[idx:]...)...)
		return out, nil
	})
	bindFlatten = func(args []Arg) (*Bound, error) {
		lt, err := listArg("flatten", args[0])
		if err != nil {
			return nil, err
		}
		inner, ok := lt.Elem().(*arrow.ListType)
		if !ok {
			return nil, fmt.Errorf("function flatten expects an ARRAY of ARRAYs, got %s", sqlName(lt))
		}
		return rowFn("flatten", inner, ps(pTo(lt)), func(v []any) (any, error) {
			out := []any{}
			for _, e := range items(v[0]) {
				if e == nil {
					return nil, nil
				}
				out = append(out, items(e)...)
			}
			return out, nil
		})(args)
	}
	// slice(arr, start, length): start is 1-based or negative from the end.
	bindSlice = arrayFn("slice", sameList, intParams(2), false, func(lt *arrow.ListType, v []any) (any, error) {
		a := items(v[0])
		start, l := v[1].(int64), v[2].(int64)
		if start == 0 {
			return nil, fmt.Errorf("the start index must not be 0")
		}
		if l < 0 {
			return nil, fmt.Errorf("the length must not be negative, got %d", l)
		}
		s := start - 1
		if start < 0 {
			s = int64(len(a)) + start
		}
		if s < 0 || s >= int64(len(a)) {
			return []any{}, nil
		}
		return append([]any{}, a[s:min(s+l, int64(len(a)))]...), nil
	})
	// sort_array(arr[, asc]): NULLs first ascending, last descending.
	bindSortArray = arrayFn("sort_array", sameList, func(*arrow.ListType) []param { return []param{pTo(types.Boolean)} }, false, func(lt *arrow.ListType, v []any) (any, error) {
		asc := len(v) < 2 || v[1] == true
		return sortItems(items(v[0]), asc, asc), nil
	})
	// array_sort(arr): ascending, NULLs last. The lambda form is not supported.
	bindArraySort = arrayFn("array_sort", sameList, noParams, false, func(lt *arrow.ListType, v []any) (any, error) {
		return sortItems(items(v[0]), true, false), nil
	})
	bindShuffle = arrayFn("shuffle", sameList, noParams, false, func(lt *arrow.ListType, v []any) (any, error) {
		out := append([]any{}, items(v[0])...)
		rand.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out, nil
	})
	// arrays_overlap: true on a common non-NULL element; else NULL when
	// either array has a NULL, else false.
	bindArraysOverlap = arrayFn("arrays_overlap", func(*arrow.ListType) arrow.DataType { return types.Boolean }, listParam, false, func(lt *arrow.ListType, v []any) (any, error) {
		set := keySet(items(v[1]))
		sawNull := false
		for _, e := range items(v[0]) {
			if e == nil {
				sawNull = true
			} else if set[elemKey(e)] {
				return true, nil
			}
		}
		for _, e := range items(v[1]) {
			sawNull = sawNull || e == nil
		}
		if sawNull && len(items(v[0])) > 0 && len(items(v[1])) > 0 {
			return nil, nil
		}
		return false, nil
	})
	// get(arr, i): 0-based, NULL out of range.
	bindGet = arrayFn("get", elemOf, intParams(1), false, func(lt *arrow.ListType, v []any) (any, error) {
		a, i := items(v[0]), v[1].(int64)
		if i < 0 || i >= int64(len(a)) {
			return nil, nil
		}
		return a[i], nil
	})
)

func keySet(a []any) map[string]bool {
	m := map[string]bool{}
	for _, e := range a {
		if e != nil {
			m[elemKey(e)] = true
		}
	}
	return m
}

// distinct keeps the first of equal elements (one NULL at most); with a
// filter set, only elements in it (keep) or not in it (!keep).
func distinct(a []any, filter map[string]bool, keep bool) []any {
	seen := map[string]bool{}
	sawNull := false
	out := []any{}
	for _, e := range a {
		if e == nil {
			if !sawNull && (filter == nil || !keep) {
				out = append(out, nil)
			}
			sawNull = true
			continue
		}
		k := elemKey(e)
		if seen[k] || (filter != nil && filter[k] != keep) {
			continue
		}
		seen[k] = true
		out = append(out, e)
	}
	return out
}

func extreme(a []any, sign int) any {
	var best any
	for _, e := range a {
		if e != nil && (best == nil || sign*compareGo(e, best) > 0) {
			best = e
		}
	}
	return best
}

func sortItems(a []any, asc, nullsFirst bool) []any {
	out := append([]any{}, a...)
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		switch {
		case x == nil || y == nil:
			return (x == nil && y != nil) == nullsFirst
		case asc:
			return compareGo(x, y) < 0
		}
		return compareGo(x, y) > 0
	})
	return out
}

// array_repeat(x, n).
func bindArrayRepeat(args []Arg) (*Bound, error) {
	t := types.Normalize(args[0].Type)
	if t.ID() == arrow.NULL {
		t = types.Int
	}
	return rowFnNulls("array_repeat", types.Array(t), ps(pTo(t), pInt), func(v []any) (any, error) {
		if v[1] == nil {
			return nil, nil
		}
		n := max(v[1].(int64), 0)
		if n > 1<<20 {
			return nil, fmt.Errorf("count %d is too large", n)
		}
		out := make([]any, n)
		for i := range out {
			out[i] = v[0]
		}
		return out, nil
	})(args)
}

// sequence(start, stop[, step]) of integers; step defaults to 1 or -1.
var bindSequence = rowFn("sequence", types.Array(types.BigInt), ps(pInt), func(v []any) (any, error) {
	a, b := v[0].(int64), v[1].(int64)
	step := int64(1)
	if a > b {
		step = -1
	}
	if len(v) == 3 {
		step = v[2].(int64)
	}
	if step == 0 || (b-a)/step < 0 {
		if a == b {
			return []any{a}, nil
		}
		return nil, fmt.Errorf("illegal sequence boundaries: %d to %d by %d", a, b, step)
	}
	if (b-a)/step > 1<<20 {
		return nil, fmt.Errorf("too long sequence: %d to %d by %d", a, b, step)
	}
	out := []any{}
	for x := a; (step > 0 && x <= b) || (step < 0 && x >= b); x += step {
		out = append(out, x)
	}
	return out, nil
})

func mapArg(fn string, a Arg) (*arrow.MapType, error) {
	mt, ok := types.Normalize(a.Type).(*arrow.MapType)
	if !ok {
		return nil, fmt.Errorf("function %s expects a MAP, got %s", fn, sqlName(a.Type))
	}
	return mt, nil
}

func mapItems(v any) map[string]any {
	if v == nil {
		return nil
	}
	return v.(map[string]any)
}

func bindMapContainsKey(args []Arg) (*Bound, error) {
	mt, err := mapArg("map_contains_key", args[0])
	if err != nil {
		return nil, err
	}
	return rowFn("map_contains_key", types.Boolean, ps(pTo(mt), pTo(mt.KeyType())), func(v []any) (any, error) {
		_, ok := mapItems(v[0])[fmt.Sprint(v[1])]
		return ok, nil
	})(args)
}

func entryType(mt *arrow.MapType) arrow.DataType {
	return types.Struct(arrow.Field{Name: "key", Type: mt.KeyType(), Nullable: false}, arrow.Field{Name: "value", Type: mt.ItemType(), Nullable: true})
}

func bindMapEntries(args []Arg) (*Bound, error) {
	mt, err := mapArg("map_entries", args[0])
	if err != nil {
		return nil, err
	}
	return rowFn("map_entries", types.Array(entryType(mt)), ps(pTo(mt)), func(v []any) (any, error) {
		m := mapItems(v[0])
		out := []any{}
		for _, k := range sortedKeys(m) {
			out = append(out, map[string]any{"key": k, "value": m[k]})
		}
		return out, nil
	})(args)
}

func bindMapConcat(args []Arg) (*Bound, error) {
	mt, err := mapArg("map_concat", args[0])
	if err != nil {
		return nil, err
	}
	return rowFn("map_concat", mt, ps(pTo(mt)), func(v []any) (any, error) {
		out := map[string]any{}
		for _, m := range v {
			for k, x := range mapItems(m) {
				if _, dup := out[k]; dup {
					return nil, fmt.Errorf("duplicate map key %q", k)
				}
				out[k] = x
			}
		}
		return out, nil
	})(args)
}

// map(k1, v1, ...): keys are STRING in Sluice's maps; a duplicate key is
// an error (Spark's default EXCEPTION policy).
func bindMap(args []Arg) (*Bound, error) {
	if len(args)%2 != 0 {
		return nil, fmt.Errorf("function map expects an even number of arguments, got %d", len(args))
	}
	var vts []arrow.DataType
	for i := 1; i < len(args); i += 2 {
		vts = append(vts, args[i].Type)
	}
	vt, err := CommonType("map", vts)
	if err != nil {
		return nil, err
	}
	if vt.ID() == arrow.NULL {
		vt = types.String
	}
	// Keys (even positions) are cast to STRING and values to their common
	// type, pair by pair: the last parameter would otherwise stand for
	// every later argument, keys included.
	params := make([]param, len(args))
	for i := range params {
		params[i] = pString
		if i%2 == 1 {
			params[i] = pTo(vt)
		}
	}
	if len(params) == 0 {
		params = []param{pString}
	}
	return rowFnNulls("map", types.Map(vt), params, func(v []any) (any, error) {
		out := map[string]any{}
		for i := 0; i+1 < len(v); i += 2 {
			if v[i] == nil {
				return nil, fmt.Errorf("map key must not be NULL")
			}
			k, ok := v[i].(string)
			if !ok {
				return nil, fmt.Errorf("map key %v is not a STRING", v[i])
			}
			if _, dup := out[k]; dup {
				return nil, fmt.Errorf("duplicate map key %q", k)
			}
			out[k] = v[i+1]
		}
		return out, nil
	})(args)
}

func bindMapFromArrays(args []Arg) (*Bound, error) {
	vl, err := listArg("map_from_arrays", args[1])
	if err != nil {
		return nil, err
	}
	return rowFn("map_from_arrays", types.Map(vl.Elem()), ps(pTo(types.Array(types.String)), pTo(vl)), func(v []any) (any, error) {
		ks, vs := items(v[0]), items(v[1])
		if len(ks) != len(vs) {
			return nil, fmt.Errorf("the key and value arrays differ in length (%d, %d)", len(ks), len(vs))
		}
		out := map[string]any{}
		for i, k := range ks {
			if k == nil {
				return nil, fmt.Errorf("map key must not be NULL")
			}
			if _, dup := out[k.(string)]; dup {
				return nil, fmt.Errorf("duplicate map key %q", k)
			}
			out[k.(string)] = vs[i]
		}
		return out, nil
	})(args)
}

// map_from_entries(array<struct<k, v>>): the first field is the key.
func bindMapFromEntries(args []Arg) (*Bound, error) {
	lt, err := listArg("map_from_entries", args[0])
	if err != nil {
		return nil, err
	}
	st, ok := lt.Elem().(*arrow.StructType)
	if !ok || st.NumFields() != 2 {
		return nil, fmt.Errorf("function map_from_entries expects an ARRAY of two-field STRUCTs, got %s", sqlName(lt))
	}
	return rowFn("map_from_entries", types.Map(st.Field(1).Type), ps(pAny), func(v []any) (any, error) {
		out := map[string]any{}
		for _, e := range items(v[0]) {
			sv, ok := e.(types.StructValue)
			if !ok {
				return nil, nil
			}
			if sv.Values[0] == nil {
				return nil, fmt.Errorf("map key must not be NULL")
			}
			k := fmt.Sprint(sv.Values[0])
			if _, dup := out[k]; dup {
				return nil, fmt.Errorf("duplicate map key %q", k)
			}
			out[k] = sv.Values[1]
		}
		return out, nil
	})(args)
}

// arrays_zip(a, b, ...): structs of the i-th elements, fields "0", "1",
// ...; shorter arrays give NULLs.
func bindArraysZip(args []Arg) (*Bound, error) {
	fields := make([]arrow.Field, len(args))
	for i, a := range args {
		lt, err := listArg("arrays_zip", a)
		if err != nil {
			return nil, err
		}
		fields[i] = arrow.Field{Name: fmt.Sprint(i), Type: lt.Elem(), Nullable: true}
	}
	return rowFn("arrays_zip", types.Array(types.Struct(fields...)), ps(pAny), func(v []any) (any, error) {
		n := 0
		for _, a := range v {
			n = max(n, len(items(a)))
		}
		out := make([]any, n)
		for i := range out {
			m := map[string]any{}
			for j, a := range v {
				if i < len(items(a)) {
					m[fmt.Sprint(j)] = items(a)[i]
				} else {
					m[fmt.Sprint(j)] = nil
				}
			}
			out[i] = m
		}
		return out, nil
	})(args)
}
