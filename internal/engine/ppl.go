package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/ppl"
	"sluice/internal/sql"
)

// expandPPL replaces a statement's PPL '...' query by its SQL
// translation, so everything after (binding, streams, views, EXPLAIN)
// sees plain SQL; a view stores the translation as its query.
func (e *Engine) expandPPL(ctx context.Context, st sql.Statement) (sql.Statement, error) {
	switch s := st.(type) {
	case *sql.SelectStmt:
		return withPPLQuery(e, ctx, s, func(c *sql.SelectStmt) **sql.Query { return &c.Query })
	case *sql.Insert:
		return withPPLQuery(e, ctx, s, func(c *sql.Insert) **sql.Query { return &c.Query })
	case *sql.InsertStream:
		return withPPLQuery(e, ctx, s, func(c *sql.InsertStream) **sql.Query { return &c.Query })
	case *sql.CreateMaterializedView:
		return withPPLQuery(e, ctx, s, func(c *sql.CreateMaterializedView) **sql.Query { return &c.Query })
	case *sql.CreateTable:
		return withPPLQuery(e, ctx, s, func(c *sql.CreateTable) **sql.Query { return &c.As })
	case *sql.Explain:
		inner, err := e.expandPPL(ctx, s.Stmt)
		if err != nil || inner == s.Stmt {
			return st, err
		}
		c := *s
		c.Stmt = inner
		return &c, nil
	}
	return st, nil
}

// withPPLQuery returns s with the query that field points at translated
// from PPL: a copy when it changed, s itself when not (no PPL, or no
// query, as a CREATE TABLE without AS).
func withPPLQuery[T any, P interface {
	*T
	sql.Statement
}](e *Engine, ctx context.Context, s P, field func(P) **sql.Query) (sql.Statement, error) {
	old := *field(s)
	q, err := e.pplQuery(ctx, old)
	if err != nil || q == old {
		return s, err
	}
	c := P(new(T))
	*c = *s
	*field(c) = q
	return c, nil
}

// pplQuery translates q when its body is PPL; q itself otherwise. An
// ORDER BY or LIMIT written after PPL '...' applies to its rows.
func (e *Engine) pplQuery(ctx context.Context, q *sql.Query) (*sql.Query, error) {
	if q == nil {
		return q, nil
	}
	body, ok := q.Body.(*sql.PPL)
	if !ok {
		return q, nil
	}
	pl, err := ppl.ParseLiteral(body)
	if err != nil {
		return nil, err
	}
	out, err := pl.TranslateSchema(func(sub *sql.Query) (*arrow.Schema, error) {
		n, err := e.bindQuery(ctx, sub)
		if err != nil {
			return nil, err
		}
		return n.Schema(), nil
	})
	if err != nil {
		return nil, err
	}
	if q.OrderBy == nil && q.Limit == nil && q.Offset == nil && q.With == nil {
		return out, nil
	}
	sel := &sql.Select{At: q.At, Items: []*sql.SelectItem{{At: q.At, Expr: &sql.Star{At: q.At}}},
		From: &sql.SubqueryTable{At: q.At, Query: out, Alias: "_ppl"}}
	return &sql.Query{At: q.At, With: q.With, Body: sel, OrderBy: q.OrderBy, Limit: q.Limit, Offset: q.Offset}, nil
}
