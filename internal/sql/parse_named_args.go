package sql

import (
	"fmt"
	"strings"
)

// namedParam is one parameter of a function that takes named arguments.
// def is the value a left-out optional parameter gets; nil when the
// parameter is required.
type namedParam struct {
	name string
	def  *Literal
}

// namedParams are the functions that take named arguments, f(name =>
// value), in Spark 3.5 (mask, count_min_sketch, explode, explode_outer;
// the table-valued ones are read elsewhere), their parameters in
// position order. Names match case-sensitively, as in Spark.
var namedParams = map[string][]namedParam{
	"mask": {{name: "str"}, {name: "upperChar", def: strLit("X")}, {name: "lowerChar", def: strLit("x")},
		{name: "digitChar", def: strLit("n")}, {name: "otherChar", def: &Literal{Kind: LitNull, Value: "NULL"}}},
	"count_min_sketch": {{name: "column"}, {name: "epsilon"}, {name: "confidence"}, {name: "seed"}},
	"explode":          {{name: "collection"}},
	"explode_outer":    {{name: "collection"}},
}

func strLit(s string) *Literal { return &Literal{Kind: LitString, Value: s} }

// namedArg is name => value while a call's arguments are read; the
// call resolves it to a position before the parser returns.
type namedArg struct {
	At    Pos
	Name  string
	Value Expr
}

func (a *namedArg) Pos() Pos { return a.At }
func (*namedArg) exprNode()  {}
func (a *namedArg) String() string {
	var b strings.Builder
	a.format(&b)
	return b.String()
}
func (a *namedArg) format(b *strings.Builder) {
	b.WriteString(QuoteIdent(a.Name) + " => ")
	a.Value.format(b)
}

// namedArgAhead reports whether name => starts here (=> is two adjacent
// tokens, = and >, which nothing else writes side by side).
func (p *parser) namedArgAhead() bool {
	eq, gt := p.peek(1), p.peek(2)
	return p.tok().kind == tkIdent && isOp(eq, "=") && isOp(gt, ">") && eq.end == gt.off
}

// namedArgument reads name => value.
func (p *parser) namedArgument() (Expr, error) {
	t := p.advance()
	p.advance()
	p.advance()
	v, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &namedArg{At: t.pos, Name: t.text, Value: v}, nil
}

// resolveNamedArgs puts c's named arguments in their positions, filling
// the optional parameters before the last one given with their
// defaults, so the call prints and binds as a positional one. It
// refuses what Spark refuses: named arguments to other functions, a
// positional argument after a named one, unknown or repeated names, and
// a required parameter left out.
func resolveNamedArgs(c *Call) error {
	first := -1
	for i, a := range c.Args {
		if _, ok := a.(*namedArg); ok {
			first = i
			break
		}
	}
	if first < 0 {
		return nil
	}
	params, ok := namedParams[strings.ToLower(c.Name)]
	if !ok {
		return errAt(c.At, "named arguments are not supported for function %s; pass the arguments by position", c.Name)
	}
	if len(c.Args) > len(params) {
		return errAt(c.At, "function %s takes at most %d arguments, got %d", c.Name, len(params), len(c.Args))
	}
	out := make([]Expr, len(params))
	copy(out, c.Args[:first])
	last := first - 1
	for _, a := range c.Args[first:] {
		na, ok := a.(*namedArg)
		if !ok {
			return errAt(a.Pos(), "function %s: a positional argument follows the named argument %s; put the positional ones first", c.Name, c.Args[first].(*namedArg).Name)
		}
		at := -1
		for i, p := range params {
			if p.name == na.Name {
				at = i
			}
		}
		switch {
		case at < 0:
			return errAt(na.At, "function %s has no parameter named %s (it has %s)", c.Name, na.Name, paramNames(params))
		case out[at] != nil:
			return errAt(na.At, "function %s: parameter %s is given twice", c.Name, na.Name)
		}
		out[at] = na.Value
		last = max(last, at)
	}
	for i := 0; i <= last; i++ {
		if out[i] != nil {
			continue
		}
		if params[i].def == nil {
			return errAt(c.At, "function %s: the required parameter %s is not given", c.Name, params[i].name)
		}
		d := *params[i].def
		d.At = c.At
		out[i] = &d
	}
	for i := last + 1; i < len(params); i++ {
		if params[i].def == nil {
			return errAt(c.At, "function %s: the required parameter %s is not given", c.Name, params[i].name)
		}
	}
	c.Args = out[:last+1]
	return nil
}

func paramNames(ps []namedParam) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = fmt.Sprintf("`%s`", p.name)
	}
	return strings.Join(names, ", ")
}
