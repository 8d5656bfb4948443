package functions

// registry lists every function, operator and aggregate Sluice knows, in
// one place: name, aliases, arity, kind and the binder or accumulator
// that implements it. Lookup is by lower-case name or alias. Operators
// are entries too (Operator: true), so expr.Call treats "+" and
// "upper" alike.
var registry = []Def{
	// Arithmetic (arith.go).
	{Name: "+", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindArith("+")},
	{Name: "-", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindArith("-")},
	{Name: "*", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindArith("*")},
	{Name: "/", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindArith("/")},
	{Name: "%", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindArith("%")},
	{Name: "negate", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Operator: true, Bind: bindNegate},

	// Comparison (compare.go).
	{Name: "=", Aliases: []string{"=="}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindCompare("=")},
	{Name: "<>", Aliases: []string{"!="}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindCompare("<>")},
	{Name: "<", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindCompare("<")},
	{Name: "<=", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindCompare("<=")},
	{Name: ">", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindCompare(">")},
	{Name: ">=", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindCompare(">=")},
	{Name: "<=>", Aliases: []string{"is_not_distinct_from"}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindCompare("<=>")},
	{Name: "between", MinArgs: 3, MaxArgs: 3, Kind: Scalar, Operator: true, Bind: bindBetween},

	// Logic and NULL tests (logic.go).
	{Name: "and", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindLogic("and")},
	{Name: "or", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindLogic("or")},
	{Name: "not", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Operator: true, Bind: bindLogic("not")},
	{Name: "is_null", Aliases: []string{"isnull"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Operator: true, Bind: bindIsNull("is_null")},
	{Name: "is_not_null", Aliases: []string{"isnotnull"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Operator: true, Bind: bindIsNull("is_not_null")},
	{Name: "is_true", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Operator: true, Bind: bindIsNull("is_true")},
	{Name: "is_false", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Operator: true, Bind: bindIsNull("is_false")},
	{Name: "is_not_true", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Operator: true, Bind: bindIsNull("is_not_true")},
	{Name: "is_not_false", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Operator: true, Bind: bindIsNull("is_not_false")},

	// Pattern matching (like.go).
	{Name: "like", MinArgs: 2, MaxArgs: 3, Kind: Scalar, Operator: true, Bind: bindLike("like")},
	{Name: "ilike", MinArgs: 2, MaxArgs: 3, Kind: Scalar, Operator: true, Bind: bindLike("ilike")},
	{Name: "rlike", Aliases: []string{"regexp", "regexp_like"}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindLike("rlike")},

	// Aggregates (agg_*.go).
	{Name: "count", MinArgs: 0, MaxArgs: -1, Kind: Aggregate, Agg: makeCount},
	{Name: "count_if", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeCountIf},
	{Name: "sum", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeSum},
	{Name: "avg", Aliases: []string{"mean"}, MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeAvg},
	{Name: "min", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeMin},
	{Name: "max", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeMax},
	{Name: "bool_and", Aliases: []string{"every"}, MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeBoolAnd},
	{Name: "bool_or", Aliases: []string{"any", "some"}, MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeBoolOr},
}
