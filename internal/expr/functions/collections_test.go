package functions_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

func TestCollectionFunctions(t *testing.T) {
	arr := L([]any{"a", nil, "c"}, types.Array(types.String))
	m := L(map[string]any{"k1": int64(1), "k2": int64(2)}, types.Map(types.BigInt))
	i32 := func(v int32) expr.Expr { return L(v, types.Int) }
	runScalar(t, []scalarCase{
		{"size", []expr.Expr{arr}, int64(3), ""},
		{"size", []expr.Expr{m}, int64(2), ""},
		{"size", []expr.Expr{L(nil, types.Array(types.Int))}, nil, ""},
		{"size", []expr.Expr{S("x")}, nil, "expects an ARRAY or MAP"},
		{"element_at", []expr.Expr{arr, i32(1)}, "a", ""},
		{"element_at", []expr.Expr{arr, i32(-1)}, "c", ""},
		{"element_at", []expr.Expr{arr, i32(4)}, nil, ""},
		{"element_at", []expr.Expr{m, S("k2")}, int64(2), ""},
		{"element_at", []expr.Expr{m, S("zz")}, nil, ""},
		{"array_contains", []expr.Expr{arr, S("c")}, true, ""},
		{"array_contains", []expr.Expr{arr, S("z")}, nil, ""}, // no match, but a NULL element
		{"array_contains", []expr.Expr{L([]any{int64(1)}, types.Array(types.BigInt)), i32(2)}, false, ""},
		{"map_keys", []expr.Expr{m}, []any{"k1", "k2"}, ""},
		{"map_values", []expr.Expr{m}, []any{int64(1), int64(2)}, ""},
		{"array", []expr.Expr{i32(1), I(2), Null()}, []any{int64(1), int64(2), nil}, ""},
		{"array", nil, []any{}, ""},
		{"struct", []expr.Expr{i32(1), S("x")}, types.StructValue{Names: []string{"col1", "col2"}, Values: []any{int64(1), "x"}}, ""},
		{"named_struct", []expr.Expr{S("city"), S("Paris"), S("n"), I(2)}, types.StructValue{Names: []string{"city", "n"}, Values: []any{"Paris", int64(2)}}, ""},
		{"named_struct", []expr.Expr{S("city"), S("x"), S("n")}, nil, "name, value pairs"},
		{"explode", []expr.Expr{arr}, nil, "produces several rows"},
	})
	et, err := functions.ExplodeType(types.Map(types.Int))
	if err != nil || types.SQLName(et) != "STRUCT<key: STRING, value: INT>" {
		t.Errorf("ExplodeType(MAP) = %v, %v", et, err)
	}
	if et, _ := functions.ExplodeType(types.Array(types.Double)); !arrow.TypeEqual(et, types.Double) {
		t.Errorf("ExplodeType(ARRAY<DOUBLE>) = %v", et)
	}
	if !isGenerator("EXPLODE") || !expr.IsFunction("explode") || expr.IsAggregate("explode") {
		t.Error("explode should be a registered generator")
	}
}

func TestHashFunctions(t *testing.T) {
	runScalar(t, []scalarCase{
		{"md5", []expr.Expr{S("Spark")}, "8cde774d6f7333752ed72cacddb05126", ""},
		{"sha1", []expr.Expr{S("Spark")}, "85f5955f4b27a9a4c2aab6ffe5d7189fc298b92c", ""},
		{"sha2", []expr.Expr{S("Spark"), I(256)}, "529bc3b07127ecb7e53a4dcf1991d9152c24537d919178022b2c42657f79a26b", ""},
		{"sha2", []expr.Expr{S("Spark"), I(7)}, nil, ""},
		{"crc32", []expr.Expr{S("Spark")}, int64(1557323817), ""},
		{"md5", []expr.Expr{Null()}, nil, ""},
	})
	// xxhash64 and hash are deterministic, never NULL, and differ for different values.
	a, _, err := call(t, one, "xxhash64", S("a"), I(1))
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := call(t, one, "xxhash64", S("a"), I(2))
	a2, _, _ := call(t, one, "xxhash64", S("a"), I(1))
	if a[0] == b[0] || a[0] != a2[0] || a[0] == nil {
		t.Errorf("xxhash64: %v %v %v", a, b, a2)
	}
	h, typ, _ := call(t, one, "hash", Null())
	if h[0] == nil || typ.ID() != arrow.INT32 {
		t.Errorf("hash(NULL) = %v (%s)", h, typ)
	}
}

// isGenerator reports whether name yields several rows per input row.
func isGenerator(name string) bool { return functions.Is(name, functions.Generator) }
