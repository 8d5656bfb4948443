package ppl

import (
	"regexp"
	"strings"

	"sluice/internal/sql"
)

// renames are PPL functions that are a registry function under another
// name (internal/expr/functions/registry.go has the rest as written).
var renames = map[string]string{
	"ifnull":            "coalesce",
	"distinct_count":    "count",
	"dc":                "count",
	"var_samp":          "var_samp",
	"stddev_samp":       "stddev_samp",
	"list":              "ppl_list",
	"values":            "ppl_values",
	"replace":           "ppl_replace",
	"dayname":           "ppl_dayname",
	"typeof":            "ppl_typeof",
	"monthname":         "ppl_monthname",
	"unix_timestamp":    "ppl_unix_timestamp",
	"adddate":           "date_add",
	"subdate":           "date_sub",
	"week":              "weekofyear",
	"dayofweek":         "dayofweek",
	"day_of_week":       "dayofweek",
	"day_of_year":       "dayofyear",
	"day_of_month":      "dayofmonth",
	"curdate":           "current_date",
	"sysdate":           "now",
	"current_time":      "now",
	"utc_timestamp":     "now",
	"mean":              "avg",
	"percentile":        "ppl_percentile",
	"percentile_approx": "ppl_percentile",
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
		if err := want(2); err != nil {
			return nil, err
		}
		op := sql.OpLike
		if name == "ilike" {
			op = sql.OpILike
		}
		return &sql.Like{At: c.At, Op: op, X: args[0], Pattern: args[1]}, nil
	case "locate":
		// locate(sub, str) is instr(str, sub).
		if err := want(2); err != nil {
			return nil, err
		}
		return &sql.Call{At: c.At, Name: "instr", Args: []sql.Expr{args[1], args[0]}}, nil
	case "timestamp", "date":
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
