package ppl

import (
	"regexp"
	"strconv"
	"strings"

	"sluice/internal/sql"
)

// rex extracts each named group of the pattern's first match anywhere in
// the field as a string field (NULL without a match); with max_match n
// != 1 each is an array of the groups of up to n matches (0: all). In
// sed mode it rewrites the field by s/regex/replacement/[g] (\1 is a
// group; without g only the first match).
func (t *translator) rex(c *Rex) error {
	field, err := t.ref(c.Field)
	if err != nil {
		return err
	}
	if c.Sed {
		if c.OffsetField != "" {
			return errAt(c.At, "rex mode=sed with offset_field is not supported")
		}
		return t.rexSed(c, field)
	}
	re, err := regexp.Compile(c.Pattern)
	if err != nil {
		return errAt(c.PatAt, "rex pattern: %v", err)
	}
	at := c.PatAt
	matched := &sql.Call{At: at, Name: "rlike", Args: []sql.Expr{field, strLit(at, c.Pattern)}}
	var names []string
	var exprs []sql.Expr
	for i, n := range re.SubexpNames() {
		if i == 0 || n == "" {
			continue
		}
		var e sql.Expr
		if c.MaxMatch == 1 {
			e = &sql.Call{At: at, Name: "regexp_extract", Args: []sql.Expr{field, strLit(at, c.Pattern), intLit(at, int64(i))}}
		} else {
			e = &sql.Call{At: at, Name: "regexp_extract_all", Args: []sql.Expr{field, strLit(at, c.Pattern), intLit(at, int64(i))}}
			if c.MaxMatch > 1 {
				e = &sql.Call{At: at, Name: "slice", Args: []sql.Expr{e, intLit(at, 1), intLit(at, c.MaxMatch)}}
			}
		}
		names = append(names, n)
		exprs = append(exprs, &sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: matched, Then: e}}})
	}
	if len(names) == 0 {
		return errAt(c.PatAt, "rex pattern has no named group (?<name>...) to extract")
	}
	if c.OffsetField != "" {
		if c.MaxMatch != 1 {
			return errAt(c.At, "rex offset_field with max_match other than 1 is not supported")
		}
		names = append(names, c.OffsetField)
		exprs = append(exprs, &sql.Call{At: at, Name: "ppl_rex_offsets", Args: []sql.Expr{field, strLit(at, c.Pattern)}})
	}
	return t.replaceOrAppend(c.At, names, exprs)
}

// sedGroup is a \N group reference of a sed replacement.
var sedGroup = regexp.MustCompile(`\\(\d)`)

func (t *translator) rexSed(c *Rex, field sql.Expr) error {
	at := c.PatAt
	s := c.Pattern
	if !strings.HasPrefix(s, "s") || len(s) < 2 {
		return errAt(at, "rex mode=sed wants s/regex/replacement/[g]")
	}
	parts := strings.Split(s[2:], s[1:2])
	if len(parts) != 3 || parts[2] != "" && parts[2] != "g" {
		return errAt(at, "rex mode=sed wants s/regex/replacement/[g] (only the g flag)")
	}
	pat, rep, global := parts[0], parts[1], parts[2] == "g"
	if _, err := regexp.Compile(pat); err != nil {
		return errAt(at, "rex pattern: %v", err)
	}
	shift := 0
	if !global {
		// Only the first match: a lazy prefix up to it, kept as $1.
		pat, shift = "^((?s:.*?))(?:"+pat+")", 1
	}
	rep = strings.ReplaceAll(rep, "$", "$$")
	rep = sedGroup.ReplaceAllStringFunc(rep, func(m string) string {
		n, _ := strconv.Atoi(m[1:])
		return "$" + strconv.Itoa(n+shift)
	})
	if !global {
		rep = "$1" + rep
	}
	f, _, err := t.resolve(c.Field.Name)
	if err != nil {
		return err
	}
	e := &sql.Call{At: at, Name: "regexp_replace", Args: []sql.Expr{field, strLit(at, pat), strLit(at, rep)}}
	return t.replaceOrAppend(c.At, []string{f}, []sql.Expr{e})
}
