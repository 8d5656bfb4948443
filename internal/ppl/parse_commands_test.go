package ppl

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// summary prints a command's parsed arguments, positions left out, for
// the parser's table test.
func summary(c Command) string {
	names := func(ns []Name) string {
		var out []string
		for _, n := range ns {
			out = append(out, n.Name)
		}
		return strings.Join(out, ",")
	}
	switch c := c.(type) {
	case *Where:
		return "where " + c.Cond.String()
	case *Fields:
		return fmt.Sprintf("fields exclude=%v %s", c.Exclude, names(c.Names))
	case *Eval:
		var out []string
		for _, a := range c.Assigns {
			out = append(out, a.Name+"="+a.Expr.String())
		}
		return "eval " + strings.Join(out, ";")
	case *Stats:
		var out []string
		for _, a := range c.Aggs {
			out = append(out, a.Call.String()+" as "+a.Name)
		}
		for _, g := range c.By {
			if g.Span != nil {
				out = append(out, fmt.Sprintf("by span(%s,%s,%q) as %s", g.Span.Field, g.Span.Size, g.Span.Unit, g.Name))
			} else {
				out = append(out, "by "+g.Expr.String()+" as "+g.Name)
			}
		}
		return "stats " + strings.Join(out, ";")
	case *Sort:
		var out []string
		for _, k := range c.Keys {
			out = append(out, fmt.Sprintf("%s desc=%v", k.Expr, k.Desc))
		}
		return "sort " + strings.Join(out, ";")
	case *Head:
		return fmt.Sprintf("head %d from %d", c.N, c.From)
	case *Dedup:
		return fmt.Sprintf("dedup %d %s keepempty=%v consecutive=%v", c.N, names(c.Fields), c.KeepEmpty, c.Consecutive)
	case *Rename:
		return fmt.Sprintf("rename %s to %s", names(c.From), names(c.To))
	case *Top:
		return fmt.Sprintf("top rare=%v %d showcount=%v countfield=%s %s by %s", c.Rare, c.N, c.ShowCount, c.CountField, names(c.Fields), names(c.By))
	case *ParseRegex:
		return fmt.Sprintf("parse grok=%v %s %q", c.Grok, c.Field, c.Pattern)
	case *Patterns:
		return fmt.Sprintf("patterns %s new=%s pattern=%q", c.Field, c.NewField, c.Pattern)
	case *FillNull:
		if c.Using != nil {
			var out []string
			for _, a := range c.Using {
				out = append(out, a.Name+"="+a.Expr.String())
			}
			return "fillnull using " + strings.Join(out, ";")
		}
		return fmt.Sprintf("fillnull with %s in %s", c.With, names(c.Fields))
	case *Lookup:
		f := func(fs []LookupField) string {
			var out []string
			for _, x := range fs {
				out = append(out, x.Name+">"+x.As)
			}
			return strings.Join(out, ",")
		}
		return fmt.Sprintf("lookup %s %s append=%v %s", c.Table, f(c.Keys), c.Append, f(c.Cols))
	case *Join:
		right := c.Right.Table
		if c.Right.Sub != nil {
			right = "[" + c.Right.Sub.Source.Table + fmt.Sprintf(" +%d]", len(c.Right.Sub.Commands))
		}
		on := ""
		if c.On != nil {
			on = c.On.String()
		}
		return fmt.Sprintf("join %s l=%s r=%s on=%s fields=%s right=%s as %s overwrite=%v", c.Kind, c.LeftAlias, c.RightAlias, on, names(c.Fields), right, c.Right.Alias, !c.NoOverwrite)
	}
	return fmt.Sprintf("%T", c)
}

// TestParseCommands: each command's arguments as the parser reads them.
func TestParseCommands(t *testing.T) {
	tests := []struct{ cmd, want string }{
		{"where a = 1 and b != 'x' or not c", "where a = 1 AND b <> 'x' OR NOT c"},
		{"where a in (1, 2) and b not like 'x%' and c between 1 and 2 and d is not null", "where a IN (1, 2) AND b NOT LIKE 'x%' AND c BETWEEN 1 AND 2 AND d IS NOT NULL"},
		{"where a xor b", "where (a OR b) AND NOT (a AND b)"},
		{"fields a, b.c, `d e`", "fields exclude=false a,b.c,d e"},
		{"fields - a*", "fields exclude=true a*"},
		{"fields + a", "fields exclude=false a"},
		{"eval x = -a * (b + 2) % 3, y = \"s\"", "eval x=-a * (b + 2) % 3;y='s'"},
		{"stats count(), avg(v) as m by g, span(ts, 30m) as w", "stats count(*) as count();avg(v) as m;by g as g;by span(ts,30,\"m\") as w"},
		{"stats dc(a), distinct_count(b), percentile(c, 90) by span(x, 0.5)", "stats count(DISTINCT a) as dc(a);count(DISTINCT b) as distinct_count(b);ppl_percentile(c, 90) as percentile(c, 90);by span(x,0.5,\"\") as span(x, 0.5)"},
		{"stats count() by span(ts, 1 h)", "stats count(*) as count();by span(ts,1,\"h\") as span(ts, 1 h)"},
		{"sort - a, +b, c desc, abs(d)", "sort a desc=true;b desc=false;c desc=true;abs(d) desc=false"},
		{"head", "head 10 from 0"},
		{"head 5 from 10", "head 5 from 10"},
		{"dedup 2 a, b keepempty=true consecutive=false", "dedup 2 a,b keepempty=true consecutive=false"},
		{"dedup a b", "dedup 1 a,b keepempty=false consecutive=false"},
		{"rename a as b, c.d as e", "rename a,c.d to b,e"},
		{"top 3 showcount=false countfield='n' a, b by c", "top rare=false 3 showcount=false countfield=n a,b by c"},
		{"top limit=2 a", "top rare=false 2 showcount=true countfield=count a by "},
		{"rare a by b, c", "top rare=true 10 showcount=true countfield=count a by b,c"},
		{"parse email '.+@(?<host>.+)'", "parse grok=false email \".+@(?<host>.+)\""},
		{"grok m '%{IP:ip} \\d'", "parse grok=true m \"%{IP:ip} \\\\d\""},
		{"patterns new_field='p' pattern='[0-9]' msg", "patterns msg new=p pattern=\"[0-9]\""},
		{"patterns msg", "patterns msg new=patterns_field pattern=\"\""},
		{"fillnull with 0 in a, b", "fillnull with 0 in a,b"},
		{"fillnull with 'x'", "fillnull with 'x' in "},
		{"fillnull using a = 1, b = 'z'", "fillnull using a=1;b='z'"},
		{"fillnull value=0 a b", "fillnull with 0 in a,b"},
		{"lookup dim id as cid, name replace dept as d, city", "lookup dim id>cid,name> append=false dept>d,city>"},
		{"lookup dim id append dept", "lookup dim id> append=true dept>"},
		{"lookup dim id", "lookup dim id> append=false "},
		{"join left = l right = r on l.a = r.b t2", "join inner l=l r=r on=l.a = r.b fields= right=t2 as  overwrite=true"},
		{"left outer join left=l right=r where l.a = r.a t2 as x", "join left l=l r=r on=l.a = r.a fields= right=t2 as x overwrite=true"},
		{"full join on a t2", "join full l= r= on=a fields= right=t2 as  overwrite=true"},
		{"left anti join on a = b t2", "join anti l= r= on=a = b fields= right=t2 as  overwrite=true"},
		{"join type=left overwrite=false a, b t2", "join left l= r= on= fields=a,b right=t2 as  overwrite=false"},
		{"join left = l right = r on l.a = r.a [ source = t2 | where d > 10 | head 5 ] as s", "join inner l=l r=r on=l.a = r.a fields= right=[t2 +2] as s overwrite=true"},
	}
	for _, tt := range tests {
		pl, err := Parse("source=t | " + tt.cmd)
		if err != nil {
			t.Errorf("%s: %v", tt.cmd, err)
			continue
		}
		if len(pl.Commands) != 1 {
			t.Errorf("%s: %d commands", tt.cmd, len(pl.Commands))
			continue
		}
		if got := summary(pl.Commands[0]); got != tt.want {
			t.Errorf("%s\n got: %s\nwant: %s", tt.cmd, got, tt.want)
		}
	}
}

// TestParseSource: source forms and the search expression.
func TestParseSource(t *testing.T) {
	for text, want := range map[string]string{
		"source=t":                         "t  <nil>",
		"search source = logs-2026.11 a=1": "logs-2026.11  a=1",
		"source=db.t as x a > 1 b = 'y'":   "db.t x (a>1 AND b=\"y\")",
		"SOURCE=t | WHERE a = 1":           "t  <nil>",
		"index=t":                          "t  <nil>",
		"source=`my table` | fields a":     "my table  <nil>",
		// OR binds tighter than AND; terms may come before source=.
		"search a=1 OR b=2 AND c>3 source=t":                          "t  ((a=1 OR b=2) AND c>3)",
		"search NOT a.b!=x* user-123 \"two words\" source=t":          "t  ((NOT a.b!=x* AND text(user-123)) AND text(two words))",
		"search `earliest`=1 earliest=-7d latest='+1d@d' source=t":    "t  ((earliest=1 AND earliest(-7d)) AND latest(+1d@d))",
		"search earliest=now() latest=1706778600.5 source=t":          "t  (earliest(now) AND latest(2024-02-01 09:10:00.5))",
		"search severityText IN (\"ERROR\", WARN) (x=ERR?R) source=t": "t  (severityText in [\"ERROR\" WARN] AND x=ERR?R)",
	} {
		pl, err := Parse(text)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		got := fmt.Sprintf("%s %s %s", pl.Source.Table, pl.Source.Alias, searchString(pl.Source.Search))
		if got != want {
			t.Errorf("%s: got %q, want %q", text, got, want)
		}
	}
	for text, want := range map[string]string{
		"search ERROR":               "search needs source=<table>",
		"search source=a source=b":   "search takes one source=<table>",
		"search (a=1 source=t":       "expected ')'",
		"search `a b` source=t":      "expected =, !=, <, <=, >, >= or IN after field a b",
		"search source=t a=":         "expected a search value",
		"search source=t a IN (1, 2": "expected ')'",
	} {
		if _, err := Parse(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", text, err, want)
		}
	}
}

func searchString(e SearchExpr) string {
	val := func(v SearchValue) string {
		if v.Quoted {
			return strconv.Quote(v.Text)
		}
		return v.Text
	}
	switch e := e.(type) {
	case nil:
		return "<nil>"
	case *SearchBool:
		if e.Not {
			return "NOT " + searchString(e.L)
		}
		op := " AND "
		if e.Or {
			op = " OR "
		}
		return "(" + searchString(e.L) + op + searchString(e.R) + ")"
	case *SearchText:
		return "text(" + e.Text + ")"
	case *SearchCompare:
		return e.Field.Name + e.Op + val(e.Value)
	case *SearchIn:
		var vs []string
		for _, v := range e.Values {
			vs = append(vs, val(v))
		}
		return e.Field.Name + " in [" + strings.Join(vs, " ") + "]"
	case *SearchTime:
		if e.Latest {
			return "latest(" + e.Modifier + ")"
		}
		return "earliest(" + e.Modifier + ")"
	}
	return "?"
}

// TestStarIsMultiplication: * next to a name in an expression multiplies;
// only fields and rename read it as a wildcard.
func TestStarIsMultiplication(t *testing.T) {
	pl, err := Parse("source=t | eval x = a*2, y = b.c*d | fields a*, *b | rename *_id as *_key")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"eval x=a * 2;y=b.c * d", "fields exclude=false a*,*b", "rename *_id to *_key"} {
		if got := summary(pl.Commands[i]); got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}
