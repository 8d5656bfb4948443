package ppl

import (
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
	"list":              "collect_list",
	"values":            "collect_set",
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
	"percentile":        "approx_percentile",
	"percentile_approx": "approx_percentile",
	"perc":              "approx_percentile",
}

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
		// PPL writes MySQL's %Y-%m-%d; the registry reads yyyy-MM-dd.
		if err := want(2); err != nil {
			return nil, err
		}
		if l, ok := args[1].(*sql.Literal); ok && l.Kind == sql.LitString {
			if p, ok := javaPattern(l.Value); ok {
				args = []sql.Expr{args[0], &sql.Literal{At: l.At, Kind: sql.LitString, Value: p}}
			}
		}
		c.Name = "date_format"
	case "distinct_count", "dc":
		c.Distinct = true
	case "median":
		if err := want(1); err != nil {
			return nil, err
		}
		return &sql.Call{At: c.At, Name: "approx_percentile", Args: []sql.Expr{args[0],
			&sql.Literal{At: c.At, Kind: sql.LitDecimal, Value: "0.5"}}}, nil
	case "percentile", "percentile_approx", "perc":
		// PPL's percent is 0..100; the registry's is 0..1.
		if err := want(2); err != nil {
			return nil, err
		}
		args = []sql.Expr{args[0], &sql.Binary{At: c.At, Op: sql.OpDiv, L: args[1],
			R: &sql.Literal{At: c.At, Kind: sql.LitDecimal, Value: "100.0"}}}
	}
	if n, ok := renames[name]; ok {
		c.Name = n
	}
	c.Args = args
	return c, nil
}
