package plan

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/sql"
)

// Table is what the binder needs to read a catalog table.
type Table struct {
	Name   string
	Source connector.Source
	// Hidden names columns of Source that SELECT * leaves out (_file, _row).
	Hidden []string
	// EventTimeColumn and WatermarkDelay (µs) come from the table's
	// WATERMARK clause (or the query's watermark_delay); empty: none.
	EventTimeColumn string
	WatermarkDelay  int64
}

// Tables resolves table names for the binder; the engine implements it
// over the catalog and the connector registry.
type Tables interface {
	ResolveTable(ctx context.Context, name string) (*Table, error)
}

// FileTables is the optional ability of a Tables to read files directly,
// for FROM json.`path` (csv, parquet): a table made for the one query,
// its schema inferred from the files.
type FileTables interface {
	ResolveFiles(ctx context.Context, format, path string) (*Table, error)
}

// Error is a binding error with the position of the offending syntax.
type Error struct {
	Pos sql.Pos
	Msg string
	// Err is the cause, when the error came from elsewhere (a table the
	// catalog does not have): errors.Is sees through to it.
	Err error
	// Missing, when set, is the column a reference did not find, for
	// clients that report it apart from Msg (the REST API's
	// FIELD_NOT_FOUND context).
	Missing *MissingColumn
}

// MissingColumn is a column reference that named no column in scope:
// its name and the names it could have used.
type MissingColumn struct {
	Name      string
	Available []string
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s (at line %d:%d)", e.Msg, e.Pos.Line, e.Pos.Col)
}

func errAt(n sql.Node, format string, args ...any) error {
	var p sql.Pos
	if n != nil {
		p = n.Pos()
	}
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// Binder turns syntax trees into logical plans.
type Binder struct {
	ctx    context.Context
	tables Tables
	ctes   []map[string]*sql.CTE
	// Streaming marks the first table read (the probe side) as the
	// stream's input (Scan.Stream): its event-time column gets an
	// EventTime node.
	Streaming  bool
	streamSeen bool
	// windowCols maps the HOP(...) and SESSION(...) calls of the SELECT
	// being bound (as canonical SQL) to the hidden column that holds their
	// window (__hop, __session).
	windowCols map[string]string
	// subqueryExprs holds, for each scalar subquery and EXISTS value
	// already joined into the plan, the expression that reads its value.
	subqueryExprs map[sql.Expr]expr.Expr
	// outer are the scopes of the queries enclosing the subquery being
	// bound, outermost first: names found there become outer references.
	outer []*scope
	// groupSubqueries maps the text of each subquery in a GROUP BY key to
	// the column holding its value before grouping.
	groupSubqueries map[string]expr.Expr
	// steps counts expression nodes bound, to look at ctx every so often.
	steps int
	// viewStack names the views being expanded, outermost first (a view
	// that reads itself is an error, not a loop).
	viewStack []string
	// prebound holds FROM items bound already, for a PIVOT or UNPIVOT
	// that rewrites itself to a query over the item it has bound.
	prebound map[sql.TableExpr]boundFrom
}

// cancelEvery is how many expression nodes the binder binds between two
// looks at its context: often enough to stop a huge statement at once,
// rarely enough to cost nothing on small ones.
const cancelEvery = 1024

// cancelled returns the context's error, looking at it every cancelEvery
// calls.
func (b *Binder) cancelled() error {
	b.steps++
	if b.steps%cancelEvery != 0 || b.ctx == nil {
		return nil
	}
	return b.ctx.Err()
}

func isCancel(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// NewBinder returns a binder resolving tables through t.
func NewBinder(ctx context.Context, t Tables) *Binder {
	return &Binder{ctx: ctx, tables: t}
}

// BindQuery binds a query to a plan whose schema is the query's columns.
func (b *Binder) BindQuery(q *sql.Query) (Node, error) {
	n, _, err := b.bindQuery(q)
	if err != nil && b.ctx != nil && b.ctx.Err() != nil && !isCancel(err) {
		// Some step reworded the error it got; what stopped it was ctx.
		return nil, fmt.Errorf("binding: %w", b.ctx.Err())
	}
	return n, err
}

func (b *Binder) lookupCTE(name string) *sql.CTE {
	for i := len(b.ctes) - 1; i >= 0; i-- {
		if c, ok := b.ctes[i][strings.ToLower(name)]; ok {
			return c
		}
	}
	return nil
}

// bindQuery binds WITH, the body, ORDER BY and LIMIT. It also returns the
// body's scope so ORDER BY can see through to the projected columns.
func (b *Binder) bindQuery(q *sql.Query) (Node, *scope, error) {
	if len(q.With) > 0 {
		m := map[string]*sql.CTE{}
		for _, c := range q.With {
			m[strings.ToLower(c.Name)] = c
		}
		b.ctes = append(b.ctes, m)
		defer func() { b.ctes = b.ctes[:len(b.ctes)-1] }()
	}
	if q.OrderByAll != nil {
		n, err := b.bindBody(q.Body)
		if err != nil {
			return nil, nil, err
		}
		n, err = b.bindLimit(bindOrderAll(n, q.OrderByAll), q)
		return n, nil, err
	}
	if sel, ok := q.Body.(*sql.Select); ok {
		n, err := b.bindSelect(sel, queryOrder(q))
		if err != nil {
			return nil, nil, err
		}
		n, err = b.bindLimit(n, q)
		return n, nil, err
	}
	n, err := b.bindBody(q.Body)
	if err != nil {
		return nil, nil, err
	}
	if order := queryOrder(q); len(order) > 0 {
		sc := scopeFor("", n.Schema(), nil)
		items, err := collatedOrder(order)
		if err != nil {
			return nil, nil, err
		}
		keys, err := b.bindOrderOutput(items, n, sc)
		if err != nil {
			return nil, nil, err
		}
		n = &Sort{Input: n, Keys: keys}
	}
	n, err = b.bindLimit(n, q)
	return n, nil, err
}

func (b *Binder) bindBody(body sql.QueryBody) (Node, error) {
	switch t := body.(type) {
	case *sql.Select:
		return b.bindSelect(t, nil)
	case *sql.Query:
		n, _, err := b.bindQuery(t)
		return n, err
	case *sql.SetOp:
		return b.bindSetOp(t)
	case *sql.Values:
		return b.bindValues(t)
	}
	return nil, errAt(body, "unsupported query form %T", body)
}

func (b *Binder) bindLimit(n Node, q *sql.Query) (Node, error) {
	if q.Limit == nil && q.Offset == nil {
		return n, nil
	}
	lim, off := int64(-1), int64(0)
	var err error
	if q.Limit != nil {
		if lim, err = b.constInt(q.Limit, "LIMIT"); err != nil {
			return nil, err
		}
	}
	if q.Offset != nil {
		if off, err = b.constInt(q.Offset, "OFFSET"); err != nil {
			return nil, err
		}
	}
	return &Limit{Input: n, N: lim, Offset: off}, nil
}

func (b *Binder) constInt(e sql.Expr, what string) (int64, error) {
	lit, ok := e.(*sql.Literal)
	if !ok || lit.Kind != sql.LitInteger {
		return 0, errAt(e, "%s expects a non-negative integer, got %s", what, e)
	}
	var v int64
	if _, err := fmt.Sscan(lit.Value, &v); err != nil || v < 0 {
		return 0, errAt(e, "%s expects a non-negative integer, got %s", what, lit.Value)
	}
	return v, nil
}
