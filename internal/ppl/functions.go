package ppl

import (
	"regexp"
	"strings"

	"sluice/internal/sql"
)

// renames are PPL functions that are a registry function under another
// name (internal/expr/functions/registry.go has the rest as written).
var renames = map[string]string{
	"ifnull":                "coalesce",
	"distinct_count":        "count",
	"dc":                    "count",
	"var_samp":              "var_samp",
	"stddev_samp":           "stddev_samp",
	"list":                  "ppl_list",
	"values":                "ppl_values",
	"replace":               "ppl_replace",
	"dayname":               "ppl_dayname",
	"typeof":                "ppl_typeof",
	"monthname":             "ppl_monthname",
	"unix_timestamp":        "ppl_unix_timestamp",
	"dayofweek":             "dayofweek",
	"day_of_week":           "dayofweek",
	"day_of_year":           "dayofyear",
	"day_of_month":          "dayofmonth",
	"curdate":               "current_date",
	"sysdate":               "now",
	"current_time":          "now",
	"utc_timestamp":         "now",
	"mean":                  "avg",
	"percentile":            "ppl_percentile",
	"percentile_approx":     "ppl_percentile",
	"month_of_year":         "month",
	"regexp_replace":        "ppl_replace",
	"distinct_count_approx": "approx_count_distinct",
}

// percShortcut is perc<p>(x) / p<p>(x), PPL's percentile(x, p).
var percShortcut = regexp.MustCompile(`^(?i)(?:perc|p)(\d+(?:\.\d+)?)$`)

// mapCall turns a PPL call into the SQL expression the registry knows.
func mapCall(c *sql.Call) (sql.Expr, error) {
	name := strings.ToLower(c.Name)
	args := c.Args
	want := func(n int) error {
		if len(args) != n {
			return syntaxErr(c.At, "%s takes %d argument(s), got %d", name, n, len(args))
		}
		return nil
	}
	if e, ok, err := mapMV(c, name); ok {
		return e, err
	}
	if e, ok, err := mapMore(c, name); ok {
		return e, err
	}
	if e, ok, err := mapRelevance(c, name); ok {
		return e, err
	}
	switch name {
	case "isnull", "isnotnull", "ispresent":
		if err := want(1); err != nil {
			return nil, err
		}
		return &sql.Is{At: c.At, X: args[0], Not: name != "isnull", Is: sql.IsNull}, nil
	case "isempty", "isblank":
		if err := want(1); err != nil {
			return nil, err
		}
		x := args[0]
		if name == "isblank" {
			x = &sql.Call{At: c.At, Name: "trim", Args: []sql.Expr{x}}
		}
		return &sql.Binary{At: c.At, Op: sql.OpOr,
			L: &sql.Is{At: c.At, X: args[0], Is: sql.IsNull},
			R: &sql.Binary{At: c.At, Op: sql.OpEq, L: &sql.Call{At: c.At, Name: "length", Args: []sql.Expr{x}},
				R: &sql.Literal{At: c.At, Kind: sql.LitInteger, Value: "0"}}}, nil
	case "like", "ilike":
		// like(s, p, true) matches case-sensitively, false ignoring case.
		if len(args) != 3 {
			if err := want(2); err != nil {
				return nil, err
			}
		}
		op := sql.OpLike
		if name == "ilike" {
			op = sql.OpILike
		}
		if len(args) == 3 {
			l, ok := args[2].(*sql.Literal)
			if !ok || l.Kind != sql.LitBool {
				return nil, syntaxErr(c.At, "%s: the third argument must be true or false", name)
			}
			op = sql.OpILike
			if strings.EqualFold(l.Value, "true") {
				op = sql.OpLike
			}
		}
		return &sql.Like{At: c.At, Op: op, X: args[0], Pattern: args[1]}, nil
	case "locate":
		// locate(sub, str) is instr(str, sub); locate(sub, str, pos) looks
		// from pos on, 0 when not found.
		if len(args) == 3 {
			from := &sql.Call{At: c.At, Name: "instr", Args: []sql.Expr{
				&sql.Call{At: c.At, Name: "substring", Args: []sql.Expr{args[1], args[2]}}, args[0]}}
			zero := &sql.Literal{At: c.At, Kind: sql.LitInteger, Value: "0"}
			return &sql.Case{At: c.At, Whens: []*sql.When{{At: c.At,
				Cond: &sql.Binary{At: c.At, Op: sql.OpOr,
					L: &sql.Binary{At: c.At, Op: sql.OpLt, L: args[2], R: &sql.Literal{At: c.At, Kind: sql.LitInteger, Value: "1"}},
					R: &sql.Binary{At: c.At, Op: sql.OpEq, L: from, R: zero}},
				Then: zero}},
				Else: &sql.Binary{At: c.At, Op: sql.OpSub, L: &sql.Binary{At: c.At, Op: sql.OpAdd, L: from, R: args[2]},
					R: &sql.Literal{At: c.At, Kind: sql.LitInteger, Value: "1"}}}, nil
		}
		if err := want(2); err != nil {
			return nil, err
		}
		return &sql.Call{At: c.At, Name: "instr", Args: []sql.Expr{args[1], args[0]}}, nil
	case "timestamp", "date":
		if name == "timestamp" && len(args) == 2 {
			// TIMESTAMP(x, t): x moved by the time of day t.
			return &sql.Call{At: c.At, Name: "ppl_timestamp2", Args: args}, nil
		}
		if err := want(1); err != nil {
			return nil, err
		}
		t, _ := sql.ParseType(strings.ToUpper(name))
		return &sql.Cast{At: c.At, X: args[0], Type: t}, nil
	case "date_format", "time_format":
		// MySQL's %Y-%m-%d, not Spark's yyyy-MM-dd.
		if err := want(2); err != nil {
			return nil, err
		}
		c.Name = "ppl_" + name
	case "distinct_count", "dc":
		c.Distinct = true
	case "median":
		if err := want(1); err != nil {
			return nil, err
		}
		return &sql.Call{At: c.At, Name: "ppl_percentile", Args: []sql.Expr{args[0],
			&sql.Literal{At: c.At, Kind: sql.LitInteger, Value: "50"}}}, nil
	case "percentile", "percentile_approx":
		if err := want(2); err != nil {
			return nil, err
		}
	default:
		if m := percShortcut.FindStringSubmatch(name); m != nil {
			if err := want(1); err != nil {
				return nil, err
			}
			kind := sql.LitInteger
			if strings.Contains(m[1], ".") {
				kind = sql.LitDecimal
			}
			return &sql.Call{At: c.At, Name: "ppl_percentile", Args: []sql.Expr{args[0],
				&sql.Literal{At: c.At, Kind: kind, Value: m[1]}}}, nil
		}
	}
	if n, ok := renames[name]; ok {
		c.Name = n
	}
	c.Args = args
	return c, nil
}
