package functions_test

import (
	"testing"

	"sluice/internal/expr"
	"sluice/internal/types"
)

func TestStringFunctions(t *testing.T) {
	runScalar(t, []scalarCase{
		{"upper", []expr.Expr{S("héllo")}, "HÉLLO", ""},
		{"LOWER", []expr.Expr{S("HeLLo")}, "hello", ""},
		{"lower", []expr.Expr{Null()}, nil, ""},
		{"upper", []expr.Expr{I(12)}, "12", ""},
		{"length", []expr.Expr{S("héllo")}, int64(5), ""},
		{"char_length", []expr.Expr{S("")}, int64(0), ""},
		{"concat", []expr.Expr{S("a"), S("b"), I(1)}, "ab1", ""},
		{"concat", []expr.Expr{S("a"), Null()}, nil, ""},
		{"||", []expr.Expr{S("a"), S("b")}, "ab", ""},
		{"concat_ws", []expr.Expr{S("-"), S("a"), Null(), S("c")}, "a-c", ""},
		{"concat_ws", []expr.Expr{S(","), L([]any{"x", nil, "y"}, types.Array(types.String)), S("z")}, "x,y,z", ""},
		{"concat_ws", []expr.Expr{Null(), S("a")}, nil, ""},
		{"substring", []expr.Expr{S("Spark SQL"), I(5)}, "k SQL", ""},
		{"substring", []expr.Expr{S("Spark SQL"), I(-3)}, "SQL", ""},
		{"substring", []expr.Expr{S("Spark SQL"), I(5), I(1)}, "k", ""},
		{"substr", []expr.Expr{S("Spark SQL"), I(0), I(2)}, "Sp", ""},
		{"substring", []expr.Expr{S("héllo"), I(2), I(3)}, "éll", ""},
		{"substring", []expr.Expr{S("abc"), I(-5), I(3)}, "a", ""},
		{"substring", []expr.Expr{S("abc"), I(2), I(-1)}, "", ""},
		{"substring", []expr.Expr{S("abc")}, nil, "function substring expects 2 or 3 arguments, got 1"},
		{"trim", []expr.Expr{S("  a b  ")}, "a b", ""},
		{"ltrim", []expr.Expr{S("  a ")}, "a ", ""},
		{"rtrim", []expr.Expr{S("  a ")}, "  a", ""},
		{"trim", []expr.Expr{S("xxaxx"), S("x")}, "a", ""},
		{"replace", []expr.Expr{S("a.b.c"), S("."), S("/")}, "a/b/c", ""},
		{"replace", []expr.Expr{S("abcabc"), S("b")}, "acac", ""},
		{"split", []expr.Expr{S("a1b22c"), S("[0-9]+")}, []any{"a", "b", "c"}, ""},
		{"split", []expr.Expr{S("a,b,,"), S(",")}, []any{"a", "b", "", ""}, ""},
		{"split", []expr.Expr{S("a,b,c"), S(","), I(2)}, []any{"a", "b,c"}, ""},
		{"split", []expr.Expr{S("a"), S("(")}, nil, "invalid regular expression"},
		{"starts_with", []expr.Expr{S("GET /index"), S("GET")}, true, ""},
		{"ends_with", []expr.Expr{S("file.json"), S(".csv")}, false, ""},
		{"contains", []expr.Expr{S("hello world"), S("o w")}, true, ""},
		{"contains", []expr.Expr{Null(), S("x")}, nil, ""},
		{"regexp_extract", []expr.Expr{S("100-200"), S(`(\d+)-(\d+)`), I(2)}, "200", ""},
		{"regexp_extract", []expr.Expr{S("100-200"), S(`(\d+)-(\d+)`)}, "100", ""},
		{"regexp_extract", []expr.Expr{S("abc"), S(`(\d+)`)}, "", ""},
		{"regexp_like", []expr.Expr{S("abc123"), S(`\d{3}$`)}, true, ""},
		{"rlike", []expr.Expr{S("abc"), S(`^b`)}, false, ""},
		{"regexp_replace", []expr.Expr{S("100-200"), S(`(\d+)`), S("<$1>")}, "<100>-<200>", ""},
		{"lpad", []expr.Expr{S("7"), I(3), S("0")}, "007", ""},
		{"lpad", []expr.Expr{S("hello"), I(2)}, "he", ""},
		{"rpad", []expr.Expr{S("ab"), I(5), S("xy")}, "abxyx", ""},
		{"rpad", []expr.Expr{S("ab"), I(4)}, "ab  ", ""},
		{"reverse", []expr.Expr{S("héllo")}, "olléh", ""},
		{"instr", []expr.Expr{S("héllo"), S("l")}, int64(3), ""},
		{"instr", []expr.Expr{S("abc"), S("z")}, int64(0), ""},
		{"left", []expr.Expr{S("abcdef"), I(2)}, "ab", ""},
		{"right", []expr.Expr{S("abcdef"), I(2)}, "ef", ""},
		{"right", []expr.Expr{S("ab"), I(5)}, "ab", ""},
		{"repeat", []expr.Expr{S("ab"), I(3)}, "ababab", ""},
		{"repeat", []expr.Expr{S("ab"), I(-1)}, "", ""},
		{"initcap", []expr.Expr{S("hello wORLD  foo")}, "Hello World  Foo", ""},
		{"upper", []expr.Expr{L([]any{"a"}, types.Array(types.String))}, nil, "function upper expects STRING for argument 1, got ARRAY<STRING>"},
	})
}

func TestStringColumn(t *testing.T) {
	c, b := column(t, types.String, "GET /a", nil, "POST /b")
	defer b.Release()
	got, _, err := call(t, b, "split", c, S(" "))
	if err != nil {
		t.Fatal(err)
	}
	want := []any{[]any{"GET", "/a"}, nil, []any{"POST", "/b"}}
	for i := range want {
		if !eq(got[i], want[i]) {
			t.Errorf("row %d: %#v, want %#v", i, got[i], want[i])
		}
	}
	// A per-row pattern compiles per distinct value.
	p, pb := column(t, types.String, "^G", "x", "^P")
	defer pb.Release()
	_ = p
	got, _, err = call(t, b, "regexp_extract", c, S(`/(\w)`), I(1))
	if err != nil {
		t.Fatal(err)
	}
	if !eq(got, []any{"a", nil, "b"}) {
		t.Errorf("regexp_extract over a column = %#v", got)
	}
}
