package pushdown_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector/pushdown"
	"sluice/internal/expr"
	"sluice/internal/types"
)

var geoType = types.Struct(
	arrow.Field{Name: "city", Type: types.String},
	arrow.Field{Name: "in", Type: types.Struct(arrow.Field{Name: "zip", Type: types.Int})})

var schema = arrow.NewSchema([]arrow.Field{
	{Name: "status", Type: types.Int},
	{Name: "id", Type: types.BigInt},
	{Name: "host", Type: types.String},
	{Name: "lat", Type: types.Double},
	{Name: "day", Type: types.Date},
	{Name: "geo", Type: geoType},
	{Name: "u", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "msg", Type: types.String},
}, nil)

func must(e expr.Expr, err error) expr.Expr {
	if err != nil {
		panic(err)
	}
	return e
}

func col(name string) expr.Expr {
	i := schema.FieldIndices(name)[0]
	return expr.Col(i, name, schema.Field(i).Type)
}

func call(name string, args ...expr.Expr) expr.Expr { return must(expr.Call(name, args...)) }
func cast(e expr.Expr, t arrow.DataType) expr.Expr  { return must(expr.Cast(e, t)) }
func in(x expr.Expr, not bool, list ...expr.Expr) expr.Expr {
	return must(expr.In(x, list, not))
}

func TestNormalize(t *testing.T) {
	i32 := func(v int32) expr.Expr { return expr.MustLit(v, types.Int) }
	i64 := func(v int64) expr.Expr { return expr.MustLit(v, types.BigInt) }
	str := func(s string) expr.Expr { return expr.MustLit(s, types.String) }
	null := expr.MustLit(nil, types.Int)
	zip := must(expr.Field(must(expr.Field(col("geo"), "in")), "zip"))
	status5 := call("=", col("status"), i32(5))
	plus := call("=", call("+", col("status"), i32(1)), i32(2))
	cases := []struct {
		name string
		e    expr.Expr
		want string
	}{
		// The column is always on the left: constants first flip once.
		{"col op lit", call("<", col("status"), i32(5)), "(status:INT < 5:INT)"},
		{"flip =", call("=", i32(5), col("status")), "(status:INT = 5:INT)"},
		{"flip <>", call("<>", i32(5), col("status")), "(status:INT <> 5:INT)"},
		{"flip <", call("<", i32(5), col("status")), "(status:INT > 5:INT)"},
		{"flip <=", call("<=", i32(5), col("status")), "(status:INT >= 5:INT)"},
		{"flip >", call(">", i32(5), col("status")), "(status:INT < 5:INT)"},
		{"flip >=", call(">=", i32(5), col("status")), "(status:INT <= 5:INT)"},
		{"null-safe equality", call("<=>", col("status"), i32(5)), "opaque((status <=> 5))"},
		{"two columns", call("=", col("status"), col("id")), "opaque((status = id))"},
		{"two constants", call("<", i32(1), i32(2)), "opaque((1 < 2))"},
		{"NULL constant", call("=", col("status"), null), "opaque((status = NULL))"},
		{"NULL constant first", call("=", null, col("status")), "opaque((NULL = status))"},
		{"expression", plus, "opaque(((status + 1) = 2))"},
		{"column out of range", call("=", expr.Col(42, "gone", types.Int), i32(1)), "opaque((gone = 1))"},

		// Casts: the ref keeps the stored type, the value its folded one.
		{"implicit widening", call("=", col("status"), i64(5)), "(status:INT = 5:BIGINT)"},
		{"implicit to DOUBLE", call(">", expr.MustLit(2.5, types.Double), col("id")), "(id:BIGINT < 2.5:DOUBLE)"},
		{"constant cast folded", call("=", col("day"), str("2024-01-02")), "(day:DATE = 19724:DATE)"},
		{"explicit cast", call("=", cast(col("status"), types.BigInt), i64(5)), "(status:INT = 5:BIGINT)"},
		{"nested casts", call("=", cast(cast(col("status"), types.Double), types.BigInt), i64(5)), "(status:INT = 5:BIGINT)"},
		{"DOUBLE column cast", call("=", cast(col("lat"), types.Int), i32(5)), "opaque((CAST(lat AS INT) = 5))"},
		{"UINT64 column cast", call("=", cast(col("u"), types.BigInt), i64(5)), "opaque((CAST(u AS BIGINT) = 5))"},
		{"text cast to number", call("=", cast(col("host"), types.Int), i32(5)), "opaque((CAST(host AS INT) = 5))"},
		{"DATE widened to TIMESTAMP", call("=", col("day"), expr.MustLit(int64(0), types.Timestamp)), "opaque((day = TIMESTAMP '1970-01-01 00:00:00'))"},
		{"field under cast", call("=", zip, i64(3)), "(geo.in.zip:INT = 3:BIGINT)"},

		// Struct fields resolve to their dotted path.
		{"struct field", call("=", must(expr.Field(col("geo"), "city")), str("x")), `(geo.city:STRING = "x":STRING)`},
		{"nested field", call("<", i32(3), zip), "(geo.in.zip:INT > 3:INT)"},

		{"in", in(col("status"), false, i32(1), i32(2)), "(status:INT IN (1:INT, 2:INT))"},
		{"in widened", in(col("status"), false, i64(1)), "(status:INT IN (1:BIGINT))"},
		{"not in", in(col("host"), true, str("a")), `(host:STRING NOT IN ("a":STRING))`},
		{"in with NULL", in(col("status"), false, i32(1), null), "opaque((status IN (1, NULL)))"},
		{"in with column", in(col("status"), false, i32(1), col("status")), "opaque((status IN (1, status)))"},
		{"constant in columns", in(i32(5), false, col("status"), col("status")), "opaque((5 IN (status, status)))"},

		{"is null", call("is_null", col("host")), "(host:STRING IS NULL)"},
		{"is not null", call("is_not_null", zip), "(geo.in.zip:INT IS NOT NULL)"},
		{"is null under cast", call("is_null", cast(col("status"), types.BigInt)), "(status:INT IS NULL)"},
		{"is null of expression", call("is_null", call("+", col("status"), i32(1))), "opaque(((status + 1) IS NULL))"},
		{"is true", call("is_true", call("=", col("status"), i32(1))), "opaque(((status = 1) IS TRUE))"},

		{"between", call("between", col("status"), i32(1), i32(3)), "(status:INT BETWEEN 1:INT AND 3:INT)"},
		{"between column bound", call("between", col("status"), i32(1), col("status")), "opaque((status BETWEEN 1 AND status))"},
		{"constant between", call("between", i32(2), col("status"), i32(3)), "opaque((2 BETWEEN status AND 3))"},

		{"match", call("match", col("msg"), str("login")), `match(msg:STRING, "login")`},
		{"match_phrase", call("match_phrase", col("msg"), str("a b")), `match_phrase(msg:STRING, "a b")`},
		{"match a column", call("match", col("msg"), col("host")), "opaque(match(msg, host))"},
		{"match NULL", call("match", col("msg"), expr.MustLit(nil, types.String)), "opaque(match(msg, NULL))"},

		{"like", call("like", col("host"), str("a%")), "opaque((host LIKE 'a%'))"},
		{"bare column", col("status"), "opaque(status)"},

		// Connectives normalize each side; an unknown side stays opaque.
		{"and", call("and", status5, plus), "((status:INT = 5:INT) AND opaque(((status + 1) = 2)))"},
		{"or", call("or", plus, call("=", i32(1), col("id"))), "(opaque(((status + 1) = 2)) OR (id:BIGINT = 1:BIGINT))"},
		{"not", call("not", call("<", i32(5), col("status"))), "(NOT (status:INT > 5:INT))"},
		{"not not", call("not", call("not", status5)), "(NOT (NOT (status:INT = 5:INT)))"},
		{"not of opaque", call("not", plus), "(NOT opaque(((status + 1) = 2)))"},
		{"nested", call("or", call("and", status5, call("is_null", col("host"))), call("not", in(col("id"), false, i64(7)))),
			"(((status:INT = 5:INT) AND (host:STRING IS NULL)) OR (NOT (id:BIGINT IN (7:BIGINT))))"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := pushdown.Normalize(c.e, schema, pushdown.IntegerCasts).String(); got != c.want {
				t.Errorf("Normalize(%s)\n got %s\nwant %s", c.e, got, c.want)
			}
		})
	}
}

// TestNormalizeCasts: which casts are seen through is the caller's rule.
func TestNormalizeCasts(t *testing.T) {
	lat5 := call("=", cast(col("lat"), types.Int), expr.MustLit(int32(5), types.Int))
	widened := call("=", col("status"), expr.MustLit(int64(5), types.BigInt))
	cases := []struct {
		name  string
		e     expr.Expr
		casts pushdown.Casts
		want  string
	}{
		// Truncates: comparing uncast values would prune matching rows.
		{"numeric: DOUBLE to INT", lat5, pushdown.NumericCasts, "opaque((CAST(lat AS INT) = 5))"},
		{"integer: DOUBLE to INT", lat5, pushdown.IntegerCasts, "opaque((CAST(lat AS INT) = 5))"},
		{"numeric: text", call("=", cast(col("host"), types.Int), expr.MustLit(int32(5), types.Int)), pushdown.NumericCasts, "opaque((CAST(host AS INT) = 5))"},
		{"none", widened, nil, "opaque((status = 5))"},
		{"no cast needs no rule", call("=", col("id"), expr.MustLit(int64(5), types.BigInt)), nil, "(id:BIGINT = 5:BIGINT)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := pushdown.Normalize(c.e, schema, c.casts).String(); got != c.want {
				t.Errorf("Normalize(%s)\n got %s\nwant %s", c.e, got, c.want)
			}
		})
	}
}

func TestRefName(t *testing.T) {
	p := pushdown.Normalize(call("is_null", must(expr.Field(must(expr.Field(col("geo"), "in")), "zip"))), schema, nil)
	n, ok := p.(pushdown.IsNull)
	if !ok {
		t.Fatalf("got %s, want IS NULL", p)
	}
	if n.Ref.Name() != "geo.in.zip" || n.Ref.Column != "geo" || n.Ref.Index != 5 || len(n.Ref.Path) != 2 {
		t.Errorf("ref %+v", n.Ref)
	}
}
