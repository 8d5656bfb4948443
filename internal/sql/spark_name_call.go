package sql

import (
	"strings"
)

// sparkFuncNames are the functions whose generated names Spark spells
// otherwise than called: its prettyName (often upper case for the math
// functions), or the function an alias stands for.
var sparkFuncNames = map[string]string{
	"sqrt": "SQRT", "power": "POWER", "rank": "RANK", "dense_rank": "DENSE_RANK", "percent_rank": "PERCENT_RANK", "rlike": "RLIKE", "regexp": "REGEXP",
	"regexp_like": "REGEXP_LIKE", "cos": "COS", "sin": "SIN", "tan": "TAN", "cot": "COT",
	"sec": "SEC", "csc": "CSC", "acos": "ACOS", "asin": "ASIN", "atan": "ATAN",
	"atan2": "ATAN2", "cosh": "COSH", "sinh": "SINH", "tanh": "TANH", "acosh": "ACOSH",
	"asinh": "ASINH", "atanh": "ATANH", "ceil": "CEIL", "floor": "FLOOR", "exp": "EXP",
	"expm1": "EXPM1", "log": "LOG", "log2": "LOG2", "log10": "LOG10", "log1p": "LOG1P",
	"cbrt": "CBRT", "hypot": "HYPOT", "signum": "SIGNUM", "degrees": "DEGREES",
	"radians": "RADIANS", "pi": "PI", "e": "E", "spark_partition_id": "SPARK_PARTITION_ID",
	"random": "rand", "user": "current_user", "curdate": "current_date",
	"current_schema": "current_database", "dateadd": "date_add", "to_varchar": "to_char",
}

// castFuncs are the type-named functions, casts Spark names by their
// argument alone.
var castFuncs = map[string]bool{
	"boolean": true, "tinyint": true, "smallint": true, "int": true, "bigint": true,
	"float": true, "double": true, "decimal": true, "string": true, "binary": true,
	"date": true, "timestamp": true,
}

func lit(kind LitKind, v string) *Literal { return &Literal{Kind: kind, Value: v} }

func str(v string) *Literal { return lit(LitString, v) }

// sparkDefaults are the optional trailing arguments Spark prints in a
// generated name though they were not written; nil marks a required one.
var sparkDefaults = map[string][]Expr{
	"lag":              {nil, lit(LitInteger, "1"), lit(LitNull, "NULL")},
	"lead":             {nil, lit(LitInteger, "1"), lit(LitNull, "NULL")},
	"split":            {nil, nil, lit(LitInteger, "-1")},
	"substr":           {nil, nil, lit(LitInteger, "2147483647")},
	"substring":        {nil, nil, lit(LitInteger, "2147483647")},
	"locate":           {nil, nil, lit(LitInteger, "1")},
	"position":         {nil, nil, lit(LitInteger, "1")},
	"lpad":             {nil, nil, str(" ")},
	"rpad":             {nil, nil, str(" ")},
	"str_to_map":       {nil, str(","), str(":")},
	"months_between":   {nil, nil, lit(LitBool, "TRUE")},
	"regexp_instr":     {nil, nil, lit(LitInteger, "0")},
	"regexp_replace":   {nil, nil, nil, lit(LitInteger, "1")},
	"overlay":          {nil, nil, nil, lit(LitInteger, "-1")},
	"from_unixtime":    {nil, str("yyyy-MM-dd HH:mm:ss")},
	"unix_timestamp":   {&Call{Name: "current_timestamp"}, str("yyyy-MM-dd HH:mm:ss")},
	"mask":             {nil, str("X"), str("x"), str("n"), lit(LitNull, "NULL")},
	"make_ym_interval": {nil, lit(LitInteger, "0")},
	"make_dt_interval": {nil, lit(LitInteger, "0"), lit(LitInteger, "0"), lit(LitDecimal, "0.000000")},
	"sentences":        {nil, str(""), str("")},
	"regexp_extract":   {nil, nil, lit(LitInteger, "1")},
	"sort_array":       {nil, lit(LitBool, "TRUE")},
	"percentile":       {nil, nil, lit(LitInteger, "1")},
	"round":            {nil, lit(LitInteger, "0")},
	"bround":           {nil, lit(LitInteger, "0")},
	"aggregate":        {nil, nil, nil, identityLambda},
	"reduce":           {nil, nil, nil, identityLambda},
}

// identityLambda is x -> x, the finish of aggregate and reduce.
var identityLambda = &Lambda{Params: []string{"x"}, Body: &ColumnRef{Parts: []string{"x"}}}

// sparkKeepArgs are the functions whose name shows only their first
// arguments: the schema or options that follow are not printed.
var sparkKeepArgs = map[string]int{
	"from_json": 1, "from_csv": 1, "to_json": 1, "to_csv": 1, "schema_of_json": 1, "schema_of_csv": 1,
}

// rankingFuncs are the window functions whose default frame is ROWS
// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW whatever the ORDER BY.
var rankingFuncs = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "ntile": true,
}

func (p *prettyPrinter) call(c *Call) {
	lower := strings.ToLower(c.Name)
	name := lower
	if s, ok := sparkFuncNames[lower]; ok && !((lower == "ceil" || lower == "floor") && len(c.Args) > 1) {
		name = s
	}
	args := c.Args
	if d, ok := sparkDefaults[lower]; ok {
		args = withDefaults(args, d)
	}
	if n, ok := sparkKeepArgs[lower]; ok && len(args) > n {
		args = args[:n]
	}
	switch {
	case lower == "window" || lower == "session_window":
		// Spark reads a time window as its column, window.start.
		p.w(lower)
		return
	case lower == "if":
		// Spark prints If as (IF(c, a, b)).
		p.paren(func() {
			p.w("IF(")
			p.list(args)
			p.w(")")
		})
		return
	case (lower == "isnull" || lower == "isnotnull") && len(args) == 1:
		p.is(&Is{X: args[0], Is: IsNull, Not: lower == "isnotnull"})
		return
	case lower == "positive" && len(args) == 1:
		p.paren(func() {
			p.w("+ ")
			p.expr(args[0])
		})
		return
	case castFuncs[lower] && len(args) == 1:
		p.expr(args[0])
		return
	case lower == "log" && len(args) == 1:
		// log(x) is the natural logarithm, Spark's LOG(E(), x).
		p.w("LOG(E(), ")
		p.expr(args[0])
		p.w(")")
		return
	case lower == "like" && len(args) == 2:
		p.like(&Like{Op: OpLike, X: args[0], Pattern: args[1]})
		return
	case (lower == "trim" || lower == "ltrim" || lower == "rtrim") && len(args) == 2:
		side := map[string]string{"trim": "BOTH", "ltrim": "LEADING", "rtrim": "TRAILING"}[lower]
		p.w("TRIM(" + side + " ")
		p.expr(args[1])
		p.w(" FROM ")
		p.expr(args[0])
		p.w(")")
		return
	case lower == "datepart" && len(args) == 2:
		p.w("datepart(")
		p.expr(args[0])
		p.w(" FROM ")
		p.expr(args[1])
		p.w(")")
		return
	}
	p.w(name + "(")
	switch {
	case c.WithinGroup:
		p.list(args[1:])
		p.w(") WITHIN GROUP (ORDER BY ")
		p.expr(args[0])
		if c.WithinDesc {
			p.w(" DESC")
		}
	case c.Star:
		p.w("1")
	default:
		if c.Distinct {
			p.w("DISTINCT ")
		}
		p.list(args)
	}
	p.w(")")
	if c.Filter != nil {
		p.w(" FILTER (WHERE ")
		p.expr(c.Filter)
		p.w(")")
	}
	if c.Over != nil {
		p.over(lower, args, c.Over)
	}
}

// withDefaults fills the optional trailing arguments Spark prints, as
// far as defaults has them; a nil default stands for a required one.
func withDefaults(args, defaults []Expr) []Expr {
	if len(args) >= len(defaults) {
		return args
	}
	for _, d := range defaults[len(args):] {
		if d == nil {
			return args
		}
	}
	return append(append([]Expr(nil), args...), defaults[len(args):]...)
}

// over prints the window as Spark does: every order key with its null
// order, and the frame always, the default one spelled out.
func (p *prettyPrinter) over(fn string, args []Expr, w *WindowSpec) {
	if w.Name != "" && len(w.PartitionBy) == 0 && len(w.OrderBy) == 0 && w.Frame == nil {
		// A named window is inlined by Spark; its text is not at hand here.
		p.w(" OVER " + w.Name)
		return
	}
	p.w(" OVER (")
	sep := ""
	if len(w.PartitionBy) > 0 {
		p.w("PARTITION BY ")
		p.list(w.PartitionBy)
		sep = " "
	}
	if len(w.OrderBy) > 0 {
		p.w(sep + "ORDER BY ")
		for i, o := range w.OrderBy {
			if i > 0 {
				p.w(", ")
			}
			p.expr(o.Expr)
			nullsFirst := !o.Desc
			if o.NullsFirst != nil {
				nullsFirst = *o.NullsFirst
			}
			dir, nulls := " ASC", " NULLS LAST"
			if o.Desc {
				dir = " DESC"
			}
			if nullsFirst {
				nulls = " NULLS FIRST"
			}
			p.w(dir + nulls)
		}
		sep = " "
	}
	p.w(sep)
	switch {
	case w.Frame != nil:
		p.w(w.Frame.Unit.String() + " BETWEEN ")
		p.bound(w.Frame.Start)
		p.w(" AND ")
		p.bound(w.Frame.End)
	case fn == "lag" || fn == "lead":
		off := "1"
		if len(args) > 1 {
			off = SparkName(args[1], nil)
		}
		if fn == "lag" {
			off = "-" + off
		}
		p.w("ROWS BETWEEN " + off + " FOLLOWING AND " + off + " FOLLOWING")
	case rankingFuncs[fn]:
		p.w("ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW")
	case len(w.OrderBy) > 0:
		p.w("RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW")
	default:
		p.w("ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING")
	}
	p.w(")")
}

func (p *prettyPrinter) bound(b FrameBound) {
	switch b.Kind {
	case Preceding:
		p.expr(b.Offset)
		p.w(" PRECEDING")
	case Following:
		p.expr(b.Offset)
		p.w(" FOLLOWING")
	default:
		p.w(b.String())
	}
}
