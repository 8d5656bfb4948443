package ppl

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"sluice/internal/sql"
)

// defaultPattern is what patterns replaces by default: runs of letters
// and digits, so amberduke@pyrami.com becomes <*>@<*>.<*>.
const defaultPattern = `[a-zA-Z0-9]+`

// patterns labels each row with its message's pattern (label mode) or
// counts the rows of each pattern (aggregation mode). simple_pattern
// replaces each match of a regular expression row by row; brain
// (OpenSearch's Brain log parser, the SQL function brain_patterns)
// learns which tokens vary from all the messages of the row's by group.
func (t *translator) patterns(c *Patterns) error {
	field, err := t.fixIf(c.Field)
	if err != nil {
		return err
	}
	var by []sql.Expr
	for _, n := range c.By {
		e, err := t.ref(n)
		if err != nil {
			return err
		}
		by = append(by, e)
	}
	if c.Brain {
		err = t.brainLabel(c, field, by)
	} else {
		pattern := c.Pattern
		if pattern == "" {
			pattern = defaultPattern
		}
		if _, err := regexp.Compile(pattern); err != nil {
			return errAt(c.At, "pattern: %v", err)
		}
		e := &sql.Call{At: c.At, Name: "regexp_replace", Args: []sql.Expr{field, strLit(c.At, pattern), strLit(c.At, "<*>")}}
		err = t.replaceOrAppend(c.At, []string{c.NewField}, []sql.Expr{e})
	}
	if err != nil || !c.Aggregation {
		return err
	}
	return t.patternCounts(c, field)
}

// brainLabel adds the brain pattern of each row's message: the input as
// a CTE, joined with one row per by group holding brain_patterns over
// the group's messages, a map looked up by the row's message.
func (t *translator) brainLabel(c *Patterns, field sql.Expr, by []sql.Expr) error {
	at := c.At
	cols, err := t.columns()
	if err != nil {
		return err
	}
	*t.n++
	cte := fmt.Sprintf("_pb%d", *t.n)
	gb := fmt.Sprintf("_bm%d", *t.n)
	call := &sql.Call{At: at, Name: "brain_patterns", Args: []sql.Expr{
		&sql.Call{At: at, Name: "collect_list", Args: []sql.Expr{field}},
		intLit(at, c.VarCount),
		&sql.Literal{At: at, Kind: sql.LitFloat, Value: strconv.FormatFloat(c.FreqPct, 'e', -1, 64)},
	}}
	agg := &sql.Select{At: at, From: &sql.TableName{At: at, Name: cte}, GroupBy: by}
	var on sql.Expr
	for i, b := range by {
		k := fmt.Sprintf("_b%d", i)
		agg.Items = append(agg.Items, item(b, k))
		eq := &sql.Binary{At: at, Op: sql.OpNullSafeEq, L: b, R: col(at, gb, k)}
		if on == nil {
			on = eq
		} else {
			on = &sql.Binary{At: at, Op: sql.OpAnd, L: on, R: eq}
		}
	}
	agg.Items = append(agg.Items, item(call, "_m"))
	join := &sql.Join{At: at, Kind: sql.JoinCross, L: &sql.TableName{At: at, Name: cte},
		R: &sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: agg}, Alias: gb}}
	if on != nil {
		join.Kind, join.On = sql.JoinLeft, on
	}
	// Bare names in the label and the join condition are the input's: the
	// grouped side has only _b0, ... and _m.
	label := &sql.Call{At: at, Name: "element_at", Args: []sql.Expr{col(at, gb, "_m"), field}}
	var items []*sql.SelectItem
	replaced := false
	for _, cc := range cols {
		if strings.EqualFold(cc, c.NewField) {
			items, replaced = append(items, item(label, cc)), true
			continue
		}
		items = append(items, item(col(at, cte, cc), cc))
	}
	if !replaced {
		items = append(items, item(label, c.NewField))
	}
	q := &sql.Query{At: at, With: []*sql.CTE{{At: at, Name: cte, Query: t.q}}, Body: &sql.Select{At: at, Items: items, From: join}}
	t.set(q.Body.(*sql.Select))
	t.q = q
	return nil
}

// patternCounts is aggregation mode over the labelled rows: per by group
// and pattern, the pattern, its row count and up to max_sample_count of
// its messages.
func (t *translator) patternCounts(c *Patterns, field sql.Expr) error {
	at := c.At
	var items []*sql.SelectItem
	var groups []sql.Expr
	for _, n := range c.By {
		e, err := t.ref(n)
		if err != nil {
			return err
		}
		items = append(items, item(e, n.Name))
		groups = append(groups, e)
	}
	pat := col(at, c.NewField)
	groups = append(groups, pat)
	samples := &sql.Call{At: at, Name: "slice", Args: []sql.Expr{
		&sql.Call{At: at, Name: "collect_list", Args: []sql.Expr{field}}, intLit(at, 1), intLit(at, c.MaxSamples)}}
	items = append(items, item(pat, c.NewField),
		item(&sql.Call{At: at, Name: "count", Star: true}, "pattern_count"),
		item(samples, "sample_logs"))
	t.set(&sql.Select{At: at, Items: items, From: t.sub(at), GroupBy: groups})
	return nil
}
