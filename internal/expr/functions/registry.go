package functions

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

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
	// The operators above fail on overflow and division by zero (ansi.go);
	// these give NULL for those rows instead.
	{Name: "try_add", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindTryArith("+")},
	{Name: "try_subtract", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindTryArith("-")},
	{Name: "try_multiply", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindTryArith("*")},
	{Name: "try_divide", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindTryArith("/")},
	{Name: "try_mod", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindTryArith("%")},

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
	{Name: "like", MinArgs: 2, MaxArgs: 3, Kind: Scalar, Bind: bindLike("like")},
	{Name: "ilike", MinArgs: 2, MaxArgs: 3, Kind: Scalar, Bind: bindLike("ilike")},
	{Name: "rlike", Aliases: []string{"regexp", "regexp_like"}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindLike("rlike")},

	// Math (math.go).
	{Name: "abs", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindAbs},
	{Name: "round", MinArgs: 1, MaxArgs: 2, Kind: Scalar, Bind: bindRound},
	{Name: "bround", MinArgs: 1, MaxArgs: 2, Kind: Scalar, Bind: bindBRound},
	{Name: "floor", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindFloorCeil("floor", math.Floor)},
	{Name: "ceil", Aliases: []string{"ceiling"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindFloorCeil("ceil", math.Ceil)},
	{Name: "mod", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindArith("%")},
	{Name: "power", Aliases: []string{"pow"}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindPower},
	{Name: "sqrt", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindSqrt},
	{Name: "ln", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindLn},
	{Name: "log", MinArgs: 1, MaxArgs: 2, Kind: Scalar, Bind: bindLog},
	{Name: "log10", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindLog10},
	{Name: "log2", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindLog2},
	{Name: "exp", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindExp},
	{Name: "sign", Aliases: []string{"signum"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindSign},

	// More math, bits and bases (math_more.go).
	{Name: "acos", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindAcos},
	{Name: "acosh", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindAcosh},
	{Name: "asin", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindAsin},
	{Name: "asinh", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindAsinh},
	{Name: "atan", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindAtan},
	{Name: "atanh", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindAtanh},
	{Name: "atan2", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindAtan2},
	{Name: "cbrt", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCbrt},
	{Name: "cos", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCos},
	{Name: "cosh", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCosh},
	{Name: "cot", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCot},
	{Name: "csc", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCsc},
	{Name: "sec", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindSec},
	{Name: "sin", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindSin},
	{Name: "sinh", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindSinh},
	{Name: "tan", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindTan},
	{Name: "tanh", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindTanh},
	{Name: "degrees", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindDeg},
	{Name: "radians", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindRad},
	{Name: "expm1", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindExpm1},
	{Name: "log1p", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindLog1p},
	{Name: "rint", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindRint},
	{Name: "hypot", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindHypot},
	{Name: "nanvl", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindNanvl},
	{Name: "isnan", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindIsNaN},
	{Name: "e", MinArgs: 0, MaxArgs: 0, Kind: Scalar, Bind: bindE},
	{Name: "pi", MinArgs: 0, MaxArgs: 0, Kind: Scalar, Bind: bindPi},
	{Name: "pmod", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindPmod},
	{Name: "positive", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindPositive},
	{Name: "negative", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindNegate},
	{Name: "factorial", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindFactorial},
	{Name: "width_bucket", MinArgs: 4, MaxArgs: 4, Kind: Scalar, Bind: bindWidthBucket},
	{Name: "bin", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindBin},
	{Name: "conv", MinArgs: 3, MaxArgs: 3, Kind: Scalar, Bind: bindConv},
	{Name: "hex", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindHex},
	{Name: "unhex", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindUnhex},
	{Name: "bit_count", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindBitCount},
	{Name: "bit_get", Aliases: []string{"getbit"}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindBitGet},
	{Name: "shiftleft", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindShiftLeft},
	{Name: "shiftright", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindShiftRight},
	{Name: "shiftrightunsigned", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindShiftRU},

	// Type-named casts: int(x) is CAST(x AS INT) (math_more.go).
	{Name: "int", Aliases: []string{"tinyint", "smallint"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCastTo("int", types.Int)},
	{Name: "bigint", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCastTo("bigint", types.BigInt)},
	{Name: "double", Aliases: []string{"float"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCastTo("double", types.Double)},
	{Name: "decimal", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCastTo("decimal", types.Decimal(10, 0))},
	{Name: "boolean", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCastTo("boolean", types.Boolean)},
	{Name: "string", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCastTo("string", types.String)},
	{Name: "date", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCastTo("date", types.Date)},
	{Name: "timestamp", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCastTo("timestamp", types.Timestamp)},
	{Name: "binary", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCastTo("binary", arrow.BinaryTypes.Binary)},

	// Strings (strings.go).
	{Name: "lower", Aliases: []string{"lcase"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindLower},
	{Name: "upper", Aliases: []string{"ucase"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindUpper},
	{Name: "length", Aliases: []string{"char_length", "character_length", "len"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindLength},
	{Name: "concat", MinArgs: 1, MaxArgs: -1, Kind: Scalar, Bind: bindConcat},
	{Name: "||", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Operator: true, Bind: bindConcat},
	{Name: "concat_ws", MinArgs: 1, MaxArgs: -1, Kind: Scalar, Bind: bindConcatWs},
	{Name: "substring", Aliases: []string{"substr"}, MinArgs: 2, MaxArgs: 3, Kind: Scalar, Bind: bindSubstring},
	{Name: "left", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindLeft},
	{Name: "right", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindRight},
	{Name: "trim", Aliases: []string{"btrim"}, MinArgs: 1, MaxArgs: 2, Kind: Scalar, Bind: bindTrim("trim")},
	{Name: "ltrim", MinArgs: 1, MaxArgs: 2, Kind: Scalar, Bind: bindTrim("ltrim")},
	{Name: "rtrim", MinArgs: 1, MaxArgs: 2, Kind: Scalar, Bind: bindTrim("rtrim")},
	{Name: "replace", MinArgs: 2, MaxArgs: 3, Kind: Scalar, Bind: bindReplace},
	{Name: "split", MinArgs: 2, MaxArgs: 3, Kind: Scalar, Bind: bindSplit},
	{Name: "starts_with", Aliases: []string{"startswith"}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindStartsWith},
	{Name: "ends_with", Aliases: []string{"endswith"}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindEndsWith},
	{Name: "contains", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindContains},
	{Name: "instr", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindInstr},
	{Name: "repeat", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindRepeat},
	{Name: "lpad", MinArgs: 2, MaxArgs: 3, Kind: Scalar, Bind: bindPad(true)},
	{Name: "rpad", MinArgs: 2, MaxArgs: 3, Kind: Scalar, Bind: bindPad(false)},
	{Name: "reverse", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindReverse},
	{Name: "initcap", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindInitcap},
	{Name: "regexp_extract", MinArgs: 2, MaxArgs: 3, Kind: Scalar, Bind: bindRegexpExtract},
	{Name: "regexp_replace", MinArgs: 3, MaxArgs: 3, Kind: Scalar, Bind: bindRegexpReplace},

	// Date and time (datetime_*.go).
	{Name: "now", Aliases: []string{"current_timestamp", "localtimestamp"}, MinArgs: 0, MaxArgs: 0, Kind: Scalar, Volatile: true, Bind: bindNow},
	{Name: "current_date", Aliases: []string{"curdate"}, MinArgs: 0, MaxArgs: 0, Kind: Scalar, Volatile: true, Bind: bindCurrentDate},
	{Name: "date_trunc", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindDateTrunc},
	{Name: "extract", Aliases: []string{"date_part", "datepart"}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindExtract},
	{Name: "year", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindField("year")},
	{Name: "quarter", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindField("quarter")},
	{Name: "month", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindField("month")},
	{Name: "day", Aliases: []string{"dayofmonth"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindField("day")},
	{Name: "hour", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindField("hour")},
	{Name: "minute", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindField("minute")},
	{Name: "second", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindField("second")},
	{Name: "dayofweek", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindField("dayofweek")},
	{Name: "dayofyear", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindField("dayofyear")},
	{Name: "weekofyear", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindField("weekofyear")},
	{Name: "date_format", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindDateFormat},
	{Name: "to_timestamp", MinArgs: 1, MaxArgs: 2, Kind: Scalar, Bind: bindToTimestamp(false)},
	{Name: "to_date", MinArgs: 1, MaxArgs: 2, Kind: Scalar, Bind: bindToTimestamp(true)},
	{Name: "from_unixtime", MinArgs: 1, MaxArgs: 2, Kind: Scalar, Bind: bindFromUnixtime},
	{Name: "unix_timestamp", MinArgs: 0, MaxArgs: 2, Kind: Scalar, Volatile: true, Bind: bindUnixTimestamp},
	{Name: "datediff", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindDatediff},
	{Name: "date_add", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindDateAdd(1)},
	{Name: "date_sub", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindDateAdd(-1)},

	// Conditional (conditional.go).
	{Name: "coalesce", MinArgs: 1, MaxArgs: -1, Kind: Scalar, Bind: bindCoalesce},
	{Name: "ifnull", Aliases: []string{"nvl"}, MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindCoalesce},
	{Name: "nullif", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindNullif},
	{Name: "if", Aliases: []string{"iff"}, MinArgs: 3, MaxArgs: 3, Kind: Scalar, Bind: bindIf},
	{Name: "greatest", MinArgs: 1, MaxArgs: -1, Kind: Scalar, Bind: bindGreatest(true)},
	{Name: "least", MinArgs: 1, MaxArgs: -1, Kind: Scalar, Bind: bindGreatest(false)},

	// Arrays, maps and structs (collections.go, nested.go).
	{Name: "size", Aliases: []string{"cardinality", "array_size"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindSize},
	{Name: "element_at", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindElementAt},
	{Name: "array_contains", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindArrayContains},
	{Name: "map_keys", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindMapPart(true)},
	{Name: "map_values", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindMapPart(false)},
	{Name: "array", MinArgs: 0, MaxArgs: -1, Kind: Scalar, Bind: bindArray},
	{Name: "struct", MinArgs: 1, MaxArgs: -1, Kind: Scalar, Bind: bindStruct(false)},
	{Name: "named_struct", MinArgs: 2, MaxArgs: -1, Kind: Scalar, Bind: bindStruct(true)},
	{Name: "explode", MinArgs: 1, MaxArgs: 1, Kind: Generator, Bind: bindGeneratorOnly("explode"),
		Doc: "one row per ARRAY element or MAP entry; see ExplodeType"},

	// Hashing (hash.go).
	{Name: "md5", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindMd5},
	{Name: "sha1", Aliases: []string{"sha"}, MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindSha1},
	{Name: "sha2", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindSha2},
	{Name: "crc32", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindCrc32},
	{Name: "xxhash64", MinArgs: 1, MaxArgs: -1, Kind: Scalar, Bind: bindXXHash(false)},
	{Name: "hash", MinArgs: 1, MaxArgs: -1, Kind: Scalar, Bind: bindXXHash(true)},

	// Full text (match.go).
	{Name: "match", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindMatch(false)},
	{Name: "match_phrase", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindMatch(true)},

	// Event-time windows (windows.go).
	{Name: "tumble", MinArgs: 2, MaxArgs: 2, Kind: Scalar, Bind: bindTumble("tumble")},
	{Name: "window", MinArgs: 2, MaxArgs: 3, Kind: Scalar, Bind: bindTumble("window")},
	{Name: "hop", MinArgs: 3, MaxArgs: 3, Kind: Generator, Bind: bindGeneratorOnly("hop"),
		Doc: "one row per sliding window holding ts; see HopStarts"},
	{Name: "session", MinArgs: 2, MaxArgs: 2, Kind: Window, Doc: "session windows, assigned by the planner"},

	// Window functions, only with OVER (window_ranking.go, window_offsets.go);
	// every aggregate also runs over a window frame.
	{Name: "row_number", MinArgs: 0, MaxArgs: 0, Kind: WindowFunction, Win: makeRanking("row_number")},
	{Name: "rank", MinArgs: 0, MaxArgs: 0, Kind: WindowFunction, Win: makeRanking("rank")},
	{Name: "dense_rank", MinArgs: 0, MaxArgs: 0, Kind: WindowFunction, Win: makeRanking("dense_rank")},
	{Name: "percent_rank", MinArgs: 0, MaxArgs: 0, Kind: WindowFunction, Win: makeRanking("percent_rank")},
	{Name: "cume_dist", MinArgs: 0, MaxArgs: 0, Kind: WindowFunction, Win: makeRanking("cume_dist")},
	{Name: "ntile", MinArgs: 1, MaxArgs: 1, Kind: WindowFunction, Win: makeRanking("ntile")},
	{Name: "lag", MinArgs: 1, MaxArgs: 3, Kind: WindowFunction, Win: makeLagLead("lag", -1)},
	{Name: "lead", MinArgs: 1, MaxArgs: 3, Kind: WindowFunction, Win: makeLagLead("lead", 1)},
	{Name: "nth_value", MinArgs: 2, MaxArgs: 2, Kind: WindowFunction, Win: makeNthValue},

	// Misc.
	{Name: "typeof", MinArgs: 1, MaxArgs: 1, Kind: Scalar, Bind: bindTypeof},

	// Aggregates (agg_*.go).
	{Name: "count", MinArgs: 0, MaxArgs: -1, Kind: Aggregate, Agg: makeCount},
	{Name: "count_if", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeCountIf},
	{Name: "sum", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeSum},
	{Name: "avg", Aliases: []string{"mean"}, MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeAvg},
	{Name: "try_sum", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeTrySum},
	{Name: "try_avg", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeTryAvg},
	{Name: "min", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeMin},
	{Name: "max", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeMax},
	{Name: "bool_and", Aliases: []string{"every"}, MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeBoolAnd},
	{Name: "bool_or", Aliases: []string{"any", "some"}, MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeBoolOr},
	{Name: "stddev", Aliases: []string{"stddev_samp", "std"}, MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeMoment("stddev", true, true)},
	{Name: "stddev_pop", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeMoment("stddev_pop", true, false)},
	{Name: "variance", Aliases: []string{"var_samp"}, MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeMoment("variance", false, true)},
	{Name: "var_pop", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeMoment("var_pop", false, false)},
	{Name: "approx_count_distinct", MinArgs: 1, MaxArgs: 2, Kind: Aggregate, Agg: makeApproxCountDistinct},
	{Name: "approx_percentile", Aliases: []string{"percentile_approx"}, MinArgs: 2, MaxArgs: 3, Kind: Aggregate, Agg: makeApproxPercentile},
	{Name: "first", Aliases: []string{"first_value"}, MinArgs: 1, MaxArgs: 2, Kind: Aggregate, Agg: makeFirstLast(false)},
	{Name: "last", Aliases: []string{"last_value"}, MinArgs: 1, MaxArgs: 2, Kind: Aggregate, Agg: makeFirstLast(true)},
	{Name: "collect_list", Aliases: []string{"array_agg"}, MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeCollect(false)},
	{Name: "collect_set", MinArgs: 1, MaxArgs: 1, Kind: Aggregate, Agg: makeCollect(true)},
}
