package plan

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// groupingIDName is the hidden key that tells the grouping sets apart,
// as Spark names it.
const groupingIDName = "spark_grouping_id"

// groupKeys is a GROUP BY list resolved to its distinct key expressions
// and, with ROLLUP, CUBE or GROUPING SETS, the sets of them to group by
// (indices into keys). sets is nil for a plain GROUP BY.
type groupKeys struct {
	keys []sql.Expr
	sets [][]int
}

// expandGroupBy turns the GROUP BY list into its keys and grouping sets:
// a plain key is in every set; elements multiply (GROUP BY a, ROLLUP (b)
// is the sets (a, b) and (a)), as in Spark.
func expandGroupBy(list []sql.Expr) groupKeys {
	var g groupKeys
	index := map[string]int{}
	id := func(e sql.Expr) int {
		k := e.String()
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(g.keys)
		g.keys = append(g.keys, e)
		return index[k]
	}
	ids := func(es []sql.Expr) []int {
		out := make([]int, 0, len(es))
		for _, e := range es {
			out = append(out, id(e))
		}
		return out
	}
	product := [][]int{{}}
	hasSets := false
	for _, e := range list {
		gs, ok := e.(*sql.GroupingSets)
		if !ok {
			i := id(e)
			for j := range product {
				product[j] = append(append([]int{}, product[j]...), i)
			}
			continue
		}
		hasSets = true
		var elems [][]int
		for _, s := range gs.Sets {
			elems = append(elems, ids(s))
		}
		var sets [][]int
		switch gs.Kind {
		case sql.GroupRollup:
			for n := len(elems); n >= 0; n-- {
				var s []int
				for _, el := range elems[:n] {
					s = append(s, el...)
				}
				sets = append(sets, s)
			}
		case sql.GroupCube:
			sets = cube(elems)
		default:
			sets = elems
		}
		var next [][]int
		for _, p := range product {
			for _, s := range sets {
				next = append(next, append(append([]int{}, p...), s...))
			}
		}
		product = next
	}
	if hasSets {
		g.sets = product
	}
	return g
}

// cube lists every subset of elems, in Spark's order: (a, b), (a), (b), ().
func cube(elems [][]int) [][]int {
	if len(elems) == 0 {
		return [][]int{{}}
	}
	rest := cube(elems[1:])
	var out [][]int
	for _, r := range rest {
		out = append(out, append(append([]int{}, elems[0]...), r...))
	}
	return append(out, rest...)
}

// groupingID is the Spark grouping id of a set over n keys: bit n-1-i is
// set when key i is not grouped (aggregated over) in that set.
func groupingID(set []int, n int) int64 {
	in := map[int]bool{}
	for _, i := range set {
		in[i] = true
	}
	var id int64
	for i := 0; i < n; i++ {
		if !in[i] {
			id |= 1 << (n - 1 - i)
		}
	}
	return id
}

// setIDs are the values of the hidden key, one per set: the grouping id,
// plus k << n for the k-th repeat of a set, so that a set listed twice
// gives its rows twice (as in Spark) rather than counting them twice.
func setIDs(sets [][]int, n int) []int64 {
	seen := map[int64]int64{}
	out := make([]int64, len(sets))
	for i, s := range sets {
		g := groupingID(s, n)
		out[i] = g + seen[g]<<n
		seen[g]++
	}
	return out
}

// expandSets adds the grouping sets to input: an Explode of the set ids
// gives each row once per set, and each key reads NULL in the sets that
// leave it out. It returns the new input and the aggregate's keys (the
// grouping id last).
func expandSets(input Node, keys []expr.Expr, sets [][]int) (Node, []expr.Expr, error) {
	n := len(keys)
	setID := setIDs(sets, n)
	ids := make([]expr.Expr, len(sets))
	for i := range sets {
		ids[i] = expr.MustLit(setID[i], types.BigInt)
	}
	gen, err := expr.Call("array", ids...)
	if err != nil {
		return nil, nil, err
	}
	base := input.Schema().NumFields()
	ex := &Explode{Input: input, Gen: gen, Names: []string{groupingIDName}, Types: []arrow.DataType{types.BigInt}}
	gid := expr.Col(base, groupingIDName, types.BigInt)
	out := make([]expr.Expr, 0, n+1)
	for i, k := range keys {
		var present []expr.Expr
		for si, s := range sets {
			for _, j := range s {
				if j == i {
					present = append(present, expr.MustLit(setID[si], types.BigInt))
					break
				}
			}
		}
		if len(present) == len(sets) {
			out = append(out, k)
			continue
		}
		var cond expr.Expr = expr.MustLit(false, types.Boolean)
		if len(present) > 0 {
			if cond, err = expr.In(gid, present, false); err != nil {
				return nil, nil, err
			}
		}
		c, err := expr.Case(nil, []expr.Expr{cond}, []expr.Expr{k}, nil)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, c)
	}
	return ex, append(out, gid), nil
}

// isGroupingCall reports grouping(x) and grouping_id(...).
func isGroupingCall(e sql.Expr) (*sql.Call, bool) {
	c, ok := e.(*sql.Call)
	if !ok || c.Over != nil {
		return nil, false
	}
	n := strings.ToLower(c.Name)
	return c, n == "grouping" || n == "grouping_id"
}

// bindGroupingCall binds grouping(x) (1 when x is aggregated over in the
// row's set, else 0; INT) and grouping_id(x, ...) (those bits, the first
// argument highest; BIGINT; with no arguments, over every key) to a CASE
// over the grouping id column gid.
func bindGroupingCall(c *sql.Call, pre *exprBinder, keyStrings []string, sets [][]int, gid expr.Expr) (expr.Expr, error) {
	name := strings.ToLower(c.Name)
	if sets == nil {
		return nil, errAt(c, "%s() needs GROUP BY with ROLLUP, CUBE or GROUPING SETS", name)
	}
	if name == "grouping" && len(c.Args) != 1 {
		return nil, errAt(c, "grouping expects 1 argument, got %d", len(c.Args))
	}
	var idx []int
	for _, a := range c.Args {
		be, err := pre.bind(a)
		if err != nil {
			return nil, err
		}
		found := -1
		for i, ks := range keyStrings {
			if ks == exprKey(be) {
				found = i
			}
		}
		if found < 0 {
			return nil, errAt(a, "%s(%s): %s is not a GROUP BY key", name, a, a)
		}
		idx = append(idx, found)
	}
	if len(c.Args) == 0 {
		for i := range keyStrings {
			idx = append(idx, i)
		}
	}
	n := len(keyStrings)
	setID := setIDs(sets, n)
	repeats := false
	for _, v := range setID {
		repeats = repeats || v >= 1<<n
	}
	if name == "grouping_id" && len(idx) == n && !repeats {
		same := true
		for j, i := range idx {
			same = same && i == j
		}
		if same {
			return gid, nil // over every key in order: the id itself
		}
	}
	var whens, thens []expr.Expr
	for si, s := range sets {
		id := groupingID(s, n)
		var v int64
		for j, i := range idx {
			if id&(1<<(n-1-i)) != 0 {
				v |= 1 << (len(idx) - 1 - j)
			}
		}
		eq, err := expr.Call("=", gid, expr.MustLit(setID[si], types.BigInt))
		if err != nil {
			return nil, err
		}
		var then expr.Expr = expr.MustLit(v, types.BigInt)
		if name == "grouping" {
			then = expr.MustLit(int32(v), types.Int)
		}
		whens, thens = append(whens, eq), append(thens, then)
	}
	return expr.Case(nil, whens, thens, nil)
}
