package ppl

import (
	"strconv"
	"strings"

	"sluice/internal/sql"
	"sluice/internal/types"
)

// pplOwn are PPL functions whose registry function is ppl_<name>: their
// meaning is not Spark's function of that name, or Spark has none.
var pplOwn = map[string]bool{
	"array": true, "split": true, "mvappend": true, "tostring": true, "tonumber": true,
	"json_valid": true, "json": true, "json_keys": true, "json_object": true, "json_array": true,
	"json_extract": true, "json_delete": true, "json_set": true, "json_append": true, "json_extend": true,
	"yearweek": true, "convert_tz": true, "to_days": true, "to_seconds": true, "from_days": true,
	"makedate": true, "period_add": true, "period_diff": true, "cidrmatch": true, "coalesce": true,
	"rand": true,
	// TIME values are HH:mm:ss strings (ppl_time.go).
	"time": true, "time_to_sec": true, "sec_to_time": true, "maketime": true, "timediff": true,
	"addtime": true, "subtime": true, "datediff": true, "datetime": true, "str_to_date": true,
}

// timeParts are PPL's functions of a time of day, over TIME strings
// too (ppl_time_part).
var timeParts = map[string]string{
	"hour": "hour", "hour_of_day": "hour", "minute": "minute", "minute_of_hour": "minute",
	"second": "second", "second_of_minute": "second", "microsecond": "microsecond",
}

// getFormats is GET_FORMAT's table (MySQL's).
var getFormats = map[string]string{
	"DATE USA": "%m.%d.%Y", "DATE JIS": "%Y-%m-%d", "DATE ISO": "%Y-%m-%d", "DATE EUR": "%d.%m.%Y", "DATE INTERNAL": "%Y%m%d",
	"TIMESTAMP USA": "%Y-%m-%d %H.%i.%s", "TIMESTAMP JIS": "%Y-%m-%d %H:%i:%s", "TIMESTAMP ISO": "%Y-%m-%d %H:%i:%s",
	"TIMESTAMP EUR": "%Y-%m-%d %H.%i.%s", "TIMESTAMP INTERNAL": "%Y%m%d%H%i%s",
	"TIME USA": "%h:%i:%s %p", "TIME JIS": "%H:%i:%s", "TIME ISO": "%H:%i:%s", "TIME EUR": "%H.%i.%s", "TIME INTERNAL": "%H%i%s",
}

// mapMore translates the PPL functions of the datetime, condition, math
// and statistical pages that are not a plain rename; ok is false for
// other names.
func mapMore(c *sql.Call, name string) (e sql.Expr, ok bool, err error) {
	args, at := c.Args, c.At
	argc := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			return syntaxErr(at, "%s takes %d to %d argument(s), got %d", name, lo, hi, len(args))
		}
		return nil
	}
	call := func(fn string, xs ...sql.Expr) *sql.Call { return &sql.Call{At: at, Name: fn, Args: xs} }
	bin := func(op string, l, r sql.Expr) sql.Expr { return &sql.Binary{At: at, Op: op, L: l, R: r} }
	num := func(v string) sql.Expr { return &sql.Literal{At: at, Kind: sql.LitInteger, Value: v} }
	str := func(v string) sql.Expr { return &sql.Literal{At: at, Kind: sql.LitString, Value: v} }
	// unit reads a bare unit name (DAY, not 'DAY') as a string.
	unit := func(x sql.Expr) (sql.Expr, error) {
		if r, isRef := x.(*sql.ColumnRef); isRef && len(r.Parts) == 1 {
			return str(strings.ToUpper(r.Parts[0])), nil
		}
		if l, isLit := x.(*sql.Literal); isLit && l.Kind == sql.LitString {
			return x, nil
		}
		return nil, syntaxErr(x.Pos(), "%s: the first argument must be a unit (DAY, MONTH, ...)", name)
	}
	switch name {
	case "now", "utc_timestamp", "current_timestamp", "localtimestamp", "localtime":
		// PPL's current time is 'YYYY-MM-DD hh:mm:ss': whole seconds
		// (SYSDATE keeps its fraction).
		if err := argc(0, 0); err != nil {
			return nil, true, err
		}
		return call("date_trunc", str("SECOND"), call("now")), true, nil
	case "eval":
		// eval(e) inside an aggregate is e (count(eval(age > 30))).
		if err := argc(1, 1); err != nil {
			return nil, true, err
		}
		return args[0], true, nil
	case "count":
		// count(condition) counts the rows where it holds, not the rows
		// where it is not NULL.
		if len(args) == 1 && isCondition(args[0]) {
			c.Args = []sql.Expr{&sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: args[0], Then: num("1")}}}}
			return c, true, nil
		}
	case "adddate", "date_add", "subdate", "date_sub":
		// With an INTERVAL the answer is a TIMESTAMP (ADDDATE(DATE
		// '2020-08-26', INTERVAL 1 HOUR) is 2020-08-26 01:00:00); with
		// days, a TIMESTAMP stays one (ppl_adddate).
		if err := argc(2, 2); err != nil {
			return nil, true, err
		}
		sub := strings.HasPrefix(name, "sub") || name == "date_sub"
		if l, isLit := args[1].(*sql.Literal); isLit && l.Kind == sql.LitInterval {
			op := sql.OpAdd
			if sub {
				op = sql.OpSub
			}
			return bin(op, &sql.Cast{At: at, X: args[0], Type: types.Timestamp}, args[1]), true, nil
		}
		fn := "ppl_adddate"
		if sub {
			fn = "ppl_subdate"
		}
		return call(fn, args...), true, nil
	case "week", "week_of_year":
		if err := argc(1, 2); err != nil {
			return nil, true, err
		}
		return call("ppl_week", args...), true, nil
	case "minute_of_day":
		if err := argc(1, 1); err != nil {
			return nil, true, err
		}
		return bin(sql.OpAdd, bin(sql.OpMul, call("ppl_time_part", str("hour"), args[0]), num("60")),
			call("ppl_time_part", str("minute"), args[0])), true, nil
	case "hour", "hour_of_day", "minute", "minute_of_hour", "second", "second_of_minute", "microsecond":
		if err := argc(1, 1); err != nil {
			return nil, true, err
		}
		return call("ppl_time_part", str(timeParts[name]), args[0]), true, nil
	case "from_unixtime":
		// With a format, MySQL's specifiers (ppl_date_format).
		if len(args) == 2 {
			return call("ppl_date_format", call("from_unixtime", args[0]), args[1]), true, nil
		}
	case "get_format":
		if err := argc(2, 2); err != nil {
			return nil, true, err
		}
		t, err1 := unit(args[0])
		l, isLit := args[1].(*sql.Literal)
		if err1 != nil || !isLit || l.Kind != sql.LitString {
			return nil, true, syntaxErr(at, "get_format takes DATE, TIME or TIMESTAMP and a constant string")
		}
		kind := t.(*sql.Literal).Value
		if kind == "DATETIME" {
			kind = "TIMESTAMP"
		}
		if f, found := getFormats[kind+" "+strings.ToUpper(l.Value)]; found {
			return str(f), true, nil
		}
		return &sql.Literal{At: at, Kind: sql.LitNull, Value: "NULL"}, true, nil
	case "timestampadd", "timestampdiff":
		if err := argc(3, 3); err != nil {
			return nil, true, err
		}
		u, err := unit(args[0])
		if err != nil {
			return nil, true, err
		}
		return call("ppl_"+name, u, args[1], args[2]), true, nil
	case "earliest", "latest":
		// earliest('-2d@d', t): t is at or after the time the modifier
		// names (inclusive, as search's earliest=); latest: at or before. With a field first it is the aggregate:
		// the value at the earliest (latest) @timestamp or given field.
		if err := argc(1, 2); err != nil {
			return nil, true, err
		}
		if l, isLit := args[0].(*sql.Literal); isLit && l.Kind == sql.LitString && len(args) == 2 {
			op := sql.OpGe
			if name == "latest" {
				op = sql.OpLe
			}
			return bin(op, args[1], call("ppl_relative_time", args[0])), true, nil
		}
		ts := sql.Expr(&sql.ColumnRef{At: at, Parts: []string{"@timestamp"}})
		if len(args) == 2 {
			ts = args[1]
		}
		fn := "min_by"
		if name == "latest" {
			fn = "max_by"
		}
		return call(fn, args[0], ts), true, nil
	case "max", "min":
		// With several arguments MAX and MIN are scalar (ppl_max).
		if len(args) > 1 {
			return call("ppl_"+name, args...), true, nil
		}
	case "sum", "avg":
		// sum(a, b, ...) is a + b + ...; avg their mean, a DOUBLE.
		if len(args) > 1 && !c.Distinct {
			total := args[0]
			for _, a := range args[1:] {
				total = bin(sql.OpAdd, total, a)
			}
			if name == "avg" {
				total = bin(sql.OpDiv, &sql.Cast{At: at, X: total, Type: types.Double}, num(strconv.Itoa(len(args))))
			}
			return total, true, nil
		}
	case "add", "subtract", "multiply", "divide", "modulus":
		if err := argc(2, 2); err != nil {
			return nil, true, err
		}
		op := map[string]string{"add": sql.OpAdd, "subtract": sql.OpSub, "multiply": sql.OpMul,
			"divide": sql.OpDiv, "modulus": sql.OpMod}[name]
		return bin(op, args[0], args[1]), true, nil
	case "atan":
		if len(args) == 2 {
			return call("atan2", args...), true, nil
		}
	case "conv":
		// PPL's digits are lower-case (conv('12', 10, 16) is c).
		return call("lower", call("conv", args...)), true, nil
	case "take":
		// take(f[, n]): the first n (default 10) values.
		if err := argc(1, 2); err != nil {
			return nil, true, err
		}
		n := num("10")
		if len(args) == 2 {
			n = args[1]
		}
		return call("slice", call("collect_list", args[0]), num("1"), n), true, nil
	}
	if pplOwn[name] {
		c.Name = "ppl_" + name
		return c, true, nil
	}
	return nil, false, nil
}

// isCondition reports whether e is written as a condition: a comparison,
// AND, OR, NOT, LIKE, IN, BETWEEN or IS.
func isCondition(e sql.Expr) bool {
	switch x := e.(type) {
	case *sql.Binary:
		switch x.Op {
		case sql.OpEq, sql.OpNe, sql.OpLt, sql.OpLe, sql.OpGt, sql.OpGe, sql.OpAnd, sql.OpOr:
			return true
		}
	case *sql.Unary:
		return x.Op == sql.OpNot
	case *sql.Like, *sql.InList, *sql.Between, *sql.Is:
		return true
	}
	return false
}
