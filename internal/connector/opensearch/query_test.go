package opensearch

import (
	"encoding/json"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// queryCols is the table the translator tests filter; msg is mapped as text.
var queryCols = []arrow.Field{
	{Name: "id", Type: types.BigInt},
	{Name: "status", Type: types.Int},
	{Name: "host", Type: types.String},
	{Name: "msg", Type: types.String},
	{Name: "ok", Type: types.Boolean},
	{Name: "ts", Type: types.Timestamp},
	{Name: "day", Type: types.Date},
	{Name: "lat", Type: types.Double},
	{Name: "geo", Type: types.Struct(
		arrow.Field{Name: "city", Type: types.String},
		arrow.Field{Name: "zip", Type: types.Int},
		arrow.Field{Name: "in", Type: types.Struct(arrow.Field{Name: "x", Type: types.Int})})},
	{Name: "tags", Type: types.Array(types.String)},
	{Name: "small", Type: arrow.PrimitiveTypes.Int16},
	{Name: "dec", Type: types.Decimal(10, 2)},
}

func mustE(e expr.Expr, err error) expr.Expr {
	if err != nil {
		panic(err)
	}
	return e
}

func qcol(name string) expr.Expr {
	for i, f := range queryCols {
		if f.Name == name {
			return expr.Col(i, name, f.Type)
		}
	}
	panic(name)
}

func qcall(name string, args ...expr.Expr) expr.Expr { return mustE(expr.Call(name, args...)) }
func qlit(v any, t arrow.DataType) expr.Expr         { return expr.MustLit(v, t) }
func qin(x expr.Expr, not bool, list ...expr.Expr) expr.Expr {
	return mustE(expr.In(x, list, not))
}

// queryCases are predicates of every shape the translator meets, with
// the DSL it makes of each: "exact " and the JSON, the JSON alone for a
// superset, or "-" when nothing is pushed.
func queryCases() []struct {
	e    expr.Expr
	want string
} {
	i32 := func(v int32) expr.Expr { return qlit(v, types.Int) }
	i64 := func(v int64) expr.Expr { return qlit(v, types.BigInt) }
	f64 := func(v float64) expr.Expr { return qlit(v, types.Double) }
	str := func(v string) expr.Expr { return qlit(v, types.String) }
	ts := qlit(int64(1_700_000_000_123_456), types.Timestamp)
	tsMs := qlit(int64(1_700_000_000_123_000), types.Timestamp)
	day := qlit(int32(19000), types.Date)
	null := qlit(nil, types.Int)
	city := mustE(expr.Field(qcol("geo"), "city"))
	zip := mustE(expr.Field(qcol("geo"), "zip"))
	x := mustE(expr.Field(mustE(expr.Field(qcol("geo"), "in")), "x"))
	status5 := qcall("=", qcol("status"), i32(5))
	hostA := qcall("=", qcol("host"), str("a"))
	login := qcall("match", qcol("msg"), str("login"))
	opaque := qcall("=", qcall("+", qcol("status"), i32(1)), i32(2))
	return []struct {
		e    expr.Expr
		want string
	}{
		{qcall("=", qcol("status"), i32(5)), "exact {\"term\":{\"status\":5}}"},
		{qcall("=", i32(5), qcol("status")), "exact {\"term\":{\"status\":5}}"},
		{qcall("<", qcol("status"), i32(5)), "exact {\"range\":{\"status\":{\"lt\":5}}}"},
		{qcall("<", i32(5), qcol("status")), "exact {\"range\":{\"status\":{\"gt\":5}}}"},
		{qcall("<=", i32(5), qcol("status")), "exact {\"range\":{\"status\":{\"gte\":5}}}"},
		{qcall(">", i32(5), qcol("status")), "exact {\"range\":{\"status\":{\"lt\":5}}}"},
		{qcall(">=", i32(5), qcol("status")), "exact {\"range\":{\"status\":{\"lte\":5}}}"},
		{qcall("<>", qcol("status"), i32(5)), "{\"bool\":{\"must_not\":[{\"term\":{\"status\":5}}]}}"},
		{qcall("<>", i32(5), qcol("status")), "{\"bool\":{\"must_not\":[{\"term\":{\"status\":5}}]}}"},
		{qcall("<=>", qcol("status"), i32(5)), "-"},
		{qcall("=", qcol("status"), i64(5)), "exact {\"term\":{\"status\":5}}"},
		{qcall("=", qcol("status"), f64(5.5)), "-"},
		{qcall("<", f64(5.5), qcol("status")), "-"},
		{qcall("=", qcol("id"), i32(7)), "exact {\"term\":{\"id\":7}}"},
		{qcall("<", qcol("id"), f64(2.5)), "-"},
		{qcall("=", qcol("small"), i32(3)), "exact {\"term\":{\"small\":3}}"},
		{qcall(">", qcol("lat"), f64(1.5)), "exact {\"range\":{\"lat\":{\"gt\":1.5}}}"},
		{qcall("=", qcol("lat"), i32(2)), "exact {\"term\":{\"lat\":2}}"},
		{qcall("=", qcol("lat"), f64(0)), "exact {\"term\":{\"lat\":0}}"},
		{qcall("=", qcol("host"), str("a")), "exact {\"term\":{\"host\":\"a\"}}"},
		{qcall("<", qcol("host"), str("b")), "exact {\"range\":{\"host\":{\"lt\":\"b\"}}}"},
		{qcall(">", str("b"), qcol("host")), "exact {\"range\":{\"host\":{\"lt\":\"b\"}}}"},
		{qcall("<>", qcol("host"), str("x")), "{\"bool\":{\"must_not\":[{\"term\":{\"host\":\"x\"}}]}}"},
		{qcall("=", qcol("msg"), str("a")), "-"},
		{qcall("=", qcol("ok"), qlit(true, types.Boolean)), "exact {\"term\":{\"ok\":true}}"},
		{qcall("<", qcol("ok"), qlit(true, types.Boolean)), "-"},
		{qcall("<>", qcol("ok"), qlit(true, types.Boolean)), "{\"bool\":{\"must_not\":[{\"term\":{\"ok\":true}}]}}"},
		{qcall("=", qcol("ts"), ts), "{\"range\":{\"ts\":{\"format\":\"epoch_millis\",\"gte\":1700000000123,\"lte\":1700000000124}}}"},
		{qcall("=", qcol("ts"), tsMs), "{\"range\":{\"ts\":{\"format\":\"epoch_millis\",\"gte\":1700000000123,\"lte\":1700000000123}}}"},
		{qcall("<", qcol("ts"), ts), "{\"range\":{\"ts\":{\"format\":\"epoch_millis\",\"lte\":1700000000124}}}"},
		{qcall(">=", ts, qcol("ts")), "{\"range\":{\"ts\":{\"format\":\"epoch_millis\",\"lte\":1700000000124}}}"},
		{qcall(">", qcol("ts"), ts), "{\"range\":{\"ts\":{\"format\":\"epoch_millis\",\"gte\":1700000000123}}}"},
		{qcall("<>", qcol("ts"), ts), "-"},
		{qcall("=", qcol("ts"), day), "{\"range\":{\"ts\":{\"format\":\"epoch_millis\",\"gte\":1641600000000,\"lte\":1641600000000}}}"},
		{qcall("=", qcol("day"), day), "exact {\"term\":{\"day\":\"2022-01-08\"}}"},
		{qcall("<", qcol("day"), day), "exact {\"range\":{\"day\":{\"lt\":\"2022-01-08\"}}}"},
		{qcall("=", qcol("day"), str("2024-01-02")), "exact {\"term\":{\"day\":\"2024-01-02\"}}"},
		{qcall("=", qcol("day"), ts), "-"},
		{qcall("=", city, str("x")), "exact {\"term\":{\"geo.city\":\"x\"}}"},
		{qcall("=", zip, i32(3)), "exact {\"term\":{\"geo.zip\":3}}"},
		{qcall("=", zip, i64(3)), "exact {\"term\":{\"geo.zip\":3}}"},
		{qcall("=", x, i32(1)), "exact {\"term\":{\"geo.in.x\":1}}"},
		{qcall("=", qcol("status"), null), "-"},
		{qcall("=", null, qcol("status")), "-"},
		{qcall("=", qcol("status"), qcol("id")), "-"},
		{qcall("=", i32(1), i32(1)), "-"},
		{qcall("=", mustE(expr.Cast(qcol("status"), types.BigInt)), i64(5)), "exact {\"term\":{\"status\":5}}"},
		{qcall("=", mustE(expr.Cast(qcol("id"), types.Int)), i32(5)), "exact {\"term\":{\"id\":5}}"},
		{qcall("=", mustE(expr.Cast(qcol("lat"), types.Int)), i32(5)), "-"},
		{qcall("=", mustE(expr.Cast(qcol("host"), types.Int)), i32(5)), "-"},
		{qcall("=", mustE(expr.Cast(mustE(expr.Cast(qcol("status"), types.Double)), types.BigInt)), i64(5)), "exact {\"term\":{\"status\":5}}"},
		{qcall("=", qcol("dec"), i32(5)), "-"},
		{opaque, "-"},
		{qin(qcol("status"), false, i32(1), i32(2)), "exact {\"terms\":{\"status\":[1,2]}}"},
		{qin(qcol("status"), false, i32(1), null), "-"},
		{qin(qcol("status"), true, i32(1), i32(2)), "-"},
		{qin(qcol("host"), false, str("a"), str("b")), "exact {\"terms\":{\"host\":[\"a\",\"b\"]}}"},
		{qin(qcol("msg"), false, str("a")), "-"},
		{qin(qcol("ts"), false, ts), "-"},
		{qin(qcol("day"), false, day), "exact {\"terms\":{\"day\":[\"2022-01-08\"]}}"},
		{qin(qcol("status"), false, i32(1), qcol("id")), "-"},
		{qin(i32(5), false, qcol("status"), qcol("small")), "-"},
		{qin(qcol("status"), false, i64(1), f64(2)), "-"},
		{qin(zip, false, i32(1)), "exact {\"terms\":{\"geo.zip\":[1]}}"},
		{qcall("is_null", qcol("status")), "exact {\"bool\":{\"must_not\":[{\"exists\":{\"field\":\"status\"}}]}}"},
		{qcall("is_not_null", qcol("host")), "exact {\"exists\":{\"field\":\"host\"}}"},
		{qcall("is_null", qcol("msg")), "-"},
		{qcall("is_null", qcol("geo")), "-"},
		{qcall("is_null", city), "exact {\"bool\":{\"must_not\":[{\"exists\":{\"field\":\"geo.city\"}}]}}"},
		{qcall("is_not_null", qcol("tags")), "-"},
		{qcall("is_null", mustE(expr.Cast(qcol("status"), types.BigInt))), "exact {\"bool\":{\"must_not\":[{\"exists\":{\"field\":\"status\"}}]}}"},
		{qcall("is_null", qcall("+", qcol("status"), i32(1))), "-"},
		{login, "{\"match\":{\"msg\":{\"query\":\"login\"}}}"},
		{qcall("match_phrase", qcol("msg"), str("a b")), "{\"match_phrase\":{\"msg\":{\"query\":\"a b\"}}}"},
		{qcall("match", qcol("host"), str("x")), "-"},
		{qcall("match", qcol("msg"), qlit(nil, types.String)), "-"},
		{qcall("match", qcol("msg"), qcol("host")), "-"}, // not a constant: nothing to push
		{qcall("and", status5, hostA), "exact {\"bool\":{\"filter\":[{\"term\":{\"status\":5}},{\"term\":{\"host\":\"a\"}}]}}"},
		{qcall("and", status5, login), "{\"bool\":{\"filter\":[{\"term\":{\"status\":5}},{\"match\":{\"msg\":{\"query\":\"login\"}}}]}}"},
		{qcall("and", status5, opaque), "{\"term\":{\"status\":5}}"},
		{qcall("and", opaque, hostA), "{\"term\":{\"host\":\"a\"}}"},
		{qcall("and", opaque, opaque), "-"},
		{qcall("or", status5, hostA), "exact {\"bool\":{\"minimum_should_match\":1,\"should\":[{\"term\":{\"status\":5}},{\"term\":{\"host\":\"a\"}}]}}"},
		{qcall("or", status5, login), "{\"bool\":{\"minimum_should_match\":1,\"should\":[{\"term\":{\"status\":5}},{\"match\":{\"msg\":{\"query\":\"login\"}}}]}}"},
		{qcall("or", status5, opaque), "-"},
		{qcall("not", status5), "{\"bool\":{\"must_not\":[{\"term\":{\"status\":5}}]}}"},
		{qcall("not", login), "-"},
		{qcall("not", opaque), "-"},
		{qcall("not", qin(qcol("status"), false, i32(1), i32(2))), "{\"bool\":{\"must_not\":[{\"terms\":{\"status\":[1,2]}}]}}"},
		{qcall("not", qcall("=", qcol("ts"), ts)), "-"},
		{qcall("not", qcall("<>", qcol("status"), i32(5))), "-"},
		{qcall("not", qcall("not", status5)), "-"},
		{qcall("not", qcall("is_null", qcol("status"))), "{\"bool\":{\"must_not\":[{\"bool\":{\"must_not\":[{\"exists\":{\"field\":\"status\"}}]}}]}}"},
		{qcall("or", qcall("and", status5, hostA), qcall("not", qcall("or", status5, hostA))), "{\"bool\":{\"minimum_should_match\":1,\"should\":[{\"bool\":{\"filter\":[{\"term\":{\"status\":5}},{\"term\":{\"host\":\"a\"}}]}},{\"bool\":{\"must_not\":[{\"bool\":{\"minimum_should_match\":1,\"should\":[{\"term\":{\"status\":5}},{\"term\":{\"host\":\"a\"}}]}}]}}]}}"},
		{qcall("and", qcall("or", status5, login), hostA), "{\"bool\":{\"filter\":[{\"bool\":{\"minimum_should_match\":1,\"should\":[{\"term\":{\"status\":5}},{\"match\":{\"msg\":{\"query\":\"login\"}}}]}},{\"term\":{\"host\":\"a\"}}]}}"},
		{qcall("between", qcol("status"), i32(1), i32(3)), "-"},
		{qcall("not", qcall("between", qcol("status"), i32(1), i32(3))), "-"},
		{qcall("like", qcol("host"), str("a%")), "-"},
		{qcol("ok"), "-"},
	}
}

func TestTranslate(t *testing.T) {
	tr := &translator{schema: arrow.NewSchema(queryCols, nil), text: map[string]bool{"msg": true}, exactPhrase: true}
	for _, c := range queryCases() {
		if got := describeDSL(tr.translate(c.e)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.e, got, c.want)
		}
	}
}

// TestTranslatePhrase: without sluice's analyzer a phrase is pushed as a
// looser match.
func TestTranslatePhrase(t *testing.T) {
	tr := &translator{schema: arrow.NewSchema(queryCols, nil), text: map[string]bool{"msg": true}}
	e := qcall("match_phrase", qcol("msg"), qlit("a b", types.String))
	if got, want := describeDSL(tr.translate(e)), `{"match":{"msg":{"query":"a b"}}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func describeDSL(q dsl, exact, ok bool) string {
	if !ok {
		return "-"
	}
	b, err := json.Marshal(q)
	if err != nil {
		return "error: " + err.Error()
	}
	if exact {
		return "exact " + string(b)
	}
	return string(b)
}
