package expr

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr/functions"
)

// CallExpr applies a function or operator to its arguments. Name is the
// registry's canonical lower-case name ("+", "and", "upper", ...).
type CallExpr struct {
	Name  string
	Args  []Expr
	def   *functions.Def
	bound *functions.Bound
}

var _ Expr = (*CallExpr)(nil)

// Call resolves a function or operator by name (case-insensitive) for
// its arguments, widening them with implicit casts; see the registry in
// package functions for every name.
func Call(name string, args ...Expr) (Expr, error) {
	def, ok := functions.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown function %s", strings.ToLower(name))
	}
	switch def.Kind {
	case functions.Aggregate:
		return nil, fmt.Errorf("aggregate function %s is not allowed here", def.Name)
	case functions.Generator:
		return nil, fmt.Errorf("%s produces several rows per input row: use it as a SELECT item on its own", def.Name)
	case functions.Window:
		return nil, fmt.Errorf("%s windows are only allowed in GROUP BY", def.Name)
	}
	if err := def.CheckArity(len(args)); err != nil {
		return nil, err
	}
	bargs := bindArgs(args)
	b, err := def.Bind(bargs)
	if err != nil {
		return nil, err
	}
	cargs, err := applyCasts(args, b.Casts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", def.Name, err)
	}
	return &CallExpr{Name: def.Name, Args: cargs, def: def, bound: b}, nil
}

// bindArgs describes arguments to a binder; literal values are passed
// so that patterns and formats compile once.
func bindArgs(args []Expr) []functions.Arg {
	out := make([]functions.Arg, len(args))
	for i, a := range args {
		out[i] = functions.Arg{Type: a.Type()}
		if l, ok := a.(*Literal); ok {
			out[i].Const = true
			out[i].Value = l.Value
		} else if v, ok := foldArray(a); ok {
			out[i].Const = true
			out[i].Value = v
		}
	}
	return out
}

// foldArray evaluates a constant array(...) call, so binders that take a
// constant list (approx_percentile(x, array(0.25, 0.75))) see its value,
// a []any as types.ValueAt gives it. Only array() is folded: other calls
// may read the query's clock or fail at run time.
func foldArray(e Expr) ([]any, bool) {
	c, ok := e.(*CallExpr)
	if !ok || c.Name != "array" || !IsConstant(c) {
		return nil, false
	}
	v, err := EvalScalar(context.Background(), c)
	if err != nil {
		return nil, false
	}
	l, ok := v.([]any)
	return l, ok
}

// applyCasts wraps arguments in implicit casts; literals are converted
// right away, so a bad constant ('abc' compared with an INT) fails here.
func applyCasts(args []Expr, casts []arrow.DataType) ([]Expr, error) {
	out := make([]Expr, len(args))
	copy(out, args)
	for i, to := range casts {
		if to == nil || i >= len(args) || arrow.TypeEqual(args[i].Type(), to) {
			continue
		}
		c, err := implicitCast(args[i], to)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

func implicitCast(e Expr, to arrow.DataType) (Expr, error) {
	if !functions.CanCast(e.Type(), to) {
		return nil, fmt.Errorf("cannot cast %s to %s", typeName(e.Type()), typeName(to))
	}
	// A bad constant is a mistake in the query: report it now. Bad values
	// in data become NULL, as in Spark's non-ANSI mode.
	if l, ok := e.(*Literal); ok {
		return foldNode(&CastExpr{Arg: e, To: to, Implicit: true}, l)
	}
	return &CastExpr{Arg: e, To: to, Implicit: true, Try: true}, nil
}

// foldNode evaluates a node over constant inputs to a Literal.
func foldNode(e Expr, _ *Literal) (Expr, error) {
	v, err := evalOne(context.Background(), e)
	if err != nil {
		return nil, err
	}
	return newLiteral(v), nil
}

// Type is the function's result type.
func (c *CallExpr) Type() arrow.DataType { return c.bound.Type }

// Def returns the registry entry.
func (c *CallExpr) Def() *functions.Def { return c.def }

// Eval evaluates the arguments, then the kernel.
func (c *CallExpr) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	args := make([]arrow.Array, len(c.Args))
	defer func() {
		for _, a := range args {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, a := range c.Args {
		v, err := a.Eval(ctx, batch)
		if err != nil {
			need, lazy := lazyArgs[c.Name]
			if !lazy || i == 0 {
				return nil, err
			}
			// See lazy.go: retry over only the rows that need it.
			rest, err := evalNeeded(ctx, batch, need, c.Args, args[:i], i, err)
			if err != nil {
				return nil, err
			}
			copy(args, rest)
			break
		}
		args[i] = v
	}
	out, err := c.bound.Eval(ctx, int(batch.NumRows()), args)
	if err != nil {
		var ae *functions.ArithError
		if errors.As(err, &ae) && ae.Expr == "" {
			ae.Expr = c.String()
			return nil, ae
		}
		return nil, fmt.Errorf("%s: %w", c.def.Name, err)
	}
	return out, nil
}

var infix = map[string]string{
	"+": "+", "-": "-", "*": "*", "/": "/", "%": "%", "=": "=", "<>": "<>", "<": "<", "<=": "<=",
	">": ">", ">=": ">=", "<=>": "<=>", "and": "AND", "or": "OR", "||": "||",
	"like": "LIKE", "ilike": "ILIKE",
	"&": "&", "|": "|", "^": "^", "<<": "<<", ">>": ">>", ">>>": ">>>", "div": "DIV",
}

var postfix = map[string]string{
	"is_null": "IS NULL", "is_not_null": "IS NOT NULL", "is_true": "IS TRUE", "is_false": "IS FALSE",
	"is_not_true": "IS NOT TRUE", "is_not_false": "IS NOT FALSE",
}

// String prints operators infix, (a + b), and functions as name(args).
func (c *CallExpr) String() string {
	var b strings.Builder
	c.writeTo(&b)
	return b.String()
}

// writeExpr prints e into b. Calls (and the implicit casts between them)
// print into the one builder, so a chain of n operators costs O(n), not
// the O(n²) of concatenating each level's printed children.
func writeExpr(b *strings.Builder, e Expr) {
	switch x := e.(type) {
	case *CallExpr:
		x.writeTo(b)
	case *CastExpr:
		if x.Implicit {
			writeExpr(b, x.Arg)
			return
		}
		b.WriteString(x.String())
	default:
		b.WriteString(e.String())
	}
}

func (c *CallExpr) writeTo(b *strings.Builder) {
	args := func(from int, sep string) {
		for i, x := range c.Args[from:] {
			if i > 0 {
				b.WriteString(sep)
			}
			writeExpr(b, x)
		}
	}
	if op, ok := infix[c.Name]; ok && len(c.Args) == 2 {
		b.WriteByte('(')
		args(0, " "+op+" ")
		b.WriteByte(')')
		return
	}
	if op, ok := infix[c.Name]; ok && len(c.Args) == 3 && (c.Name == "like" || c.Name == "ilike") {
		b.WriteByte('(')
		writeExpr(b, c.Args[0])
		b.WriteString(" " + op + " ")
		writeExpr(b, c.Args[1])
		b.WriteString(" ESCAPE ")
		writeExpr(b, c.Args[2])
		b.WriteByte(')')
		return
	}
	if op, ok := postfix[c.Name]; ok {
		b.WriteByte('(')
		writeExpr(b, c.Args[0])
		b.WriteString(" " + op + ")")
		return
	}
	switch c.Name {
	case "not", "negate", "~":
		switch c.Name {
		case "not":
			b.WriteString("(NOT ")
		case "~":
			b.WriteString("(~ ")
		default:
			b.WriteString("(- ")
		}
		writeExpr(b, c.Args[0])
		b.WriteByte(')')
		return
	case "between":
		b.WriteByte('(')
		writeExpr(b, c.Args[0])
		b.WriteString(" BETWEEN ")
		writeExpr(b, c.Args[1])
		b.WriteString(" AND ")
		writeExpr(b, c.Args[2])
		b.WriteByte(')')
		return
	case "extract":
		if l, ok := c.Args[0].(*Literal); ok && len(c.Args) == 2 {
			if s, ok := l.Value.(string); ok {
				b.WriteString("extract(" + strings.ToUpper(s) + " FROM ")
				writeExpr(b, c.Args[1])
				b.WriteByte(')')
				return
			}
		}
	}
	b.WriteString(c.Name + "(")
	args(0, ", ")
	b.WriteByte(')')
}

// Children are the arguments.
func (c *CallExpr) Children() []Expr { return c.Args }

func (c *CallExpr) withChildren(ch []Expr) Expr {
	cc := *c
	cc.Args = ch
	return &cc
}
