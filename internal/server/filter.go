package server

import (
	"encoding/json"
	"fmt"

	"sluice/internal/ppl"
	"sluice/internal/sql"
)

// withFilter wraps an endpoint's parser so the request's filter (an
// OpenSearch DSL object, see dslPredicate) keeps only the source table's
// rows it matches, as the plugin adds it to the index's search request.
// A query with no single source table (a join, a WITH, a set operation,
// several PPL sources) is refused with the reason: the filter is never
// ignored.
func withFilter(ep endpoint, raw json.RawMessage) (func(string) (sql.Statement, error), error) {
	if len(raw) == 0 || string(raw) == "null" {
		return ep.parse, nil
	}
	pred, err := dslPredicate(raw)
	if err != nil {
		return nil, badRequest(err.Error())
	}
	if pred == "" {
		return ep.parse, nil
	}
	if ep.ppl {
		return func(text string) (sql.Statement, error) {
			if _, err := ep.parse(text); err != nil {
				return nil, err // the user's query's own error, at its own position
			}
			out, err := ppl.WhereAfterSource(text, pred)
			if err != nil {
				return nil, badRequest("filter: " + err.Error())
			}
			return ep.parse(out)
		}, nil
	}
	cond, err := sql.ParseExpr(pred)
	if err != nil {
		return nil, badRequest(fmt.Sprintf("filter: %v", err))
	}
	return func(text string) (sql.Statement, error) {
		st, err := ep.parse(text)
		if err != nil {
			return nil, err
		}
		sel, ok := st.(*sql.SelectStmt)
		if !ok {
			return nil, badRequest("filter: applies to a query's source table; this statement is not a query")
		}
		target, err := filterTarget(sel.Query)
		if err != nil {
			return nil, badRequest("filter: " + err.Error())
		}
		if target.Where == nil {
			target.Where = cond
		} else {
			target.Where = &sql.Binary{At: target.Where.Pos(), Op: sql.OpAnd, L: cond, R: target.Where}
		}
		return st, nil
	}, nil
}

// filterTarget is the SELECT that reads the query's one source table:
// through FROM (subquery) to the table's own SELECT, whose WHERE then
// filters the table's rows before any grouping, window or limit.
func filterTarget(q *sql.Query) (*sql.Select, error) {
	for {
		if len(q.With) > 0 {
			return nil, fmt.Errorf("cannot apply to a query with WITH (it has several sources)")
		}
		sel, ok := q.Body.(*sql.Select)
		if !ok {
			return nil, fmt.Errorf("cannot apply to a set operation or a PPL query inside SQL (it has several sources)")
		}
		switch from := sel.From.(type) {
		case *sql.TableName:
			return sel, nil
		case *sql.SubqueryTable:
			q = from.Query
		case *sql.Join:
			return nil, fmt.Errorf("cannot apply to a join (it has several source tables)")
		case nil:
			return nil, fmt.Errorf("the query has no source table")
		default:
			return nil, fmt.Errorf("cannot apply to a FROM that is not one table (a table function, LATERAL VIEW, PIVOT or UNPIVOT)")
		}
	}
}
