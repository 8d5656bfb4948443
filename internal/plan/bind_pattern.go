package plan

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/sql"
)

// PatternTables is the optional ability of a Tables to expand an index
// pattern, as OpenSearch does for a search: `logs-*`, or a comma list
// `a,b` whose parts may hold `*`.
//
// MatchTables returns the names the pattern names, each once, in the
// order listed (a wildcard part's matches sorted); a pattern naming
// nothing is a *catalog.TableNotFoundError of the whole pattern.
type PatternTables interface {
	MatchTables(ctx context.Context, pattern string) ([]string, error)
}

// IsIndexPattern reports a FROM name that is an index pattern: it holds
// a * or a comma, which no table name does.
func IsIndexPattern(name string) bool { return strings.ContainsAny(name, "*,") }

// bindPattern binds FROM pattern as the union of the tables it names,
// as the plugin searches several indices at once: the columns are those
// of every table, by name in the order first seen, NULL in a table
// without one; the hidden columns (_id, _index) stay hidden.
func (b *Binder) bindPattern(te *sql.TableName, alias string) (Node, *scope, error) {
	pt, ok := b.tables.(PatternTables)
	if !ok || b.Streaming {
		return nil, nil, errAt(te, "FROM %s: an index pattern is read by batch queries over search tables only", te.Name)
	}
	names, err := pt.MatchTables(b.ctx, te.Name)
	if err != nil {
		return nil, nil, &Error{Pos: te.Pos(), Msg: err.Error(), Err: err}
	}
	var scans []*Scan
	var fields []arrow.Field
	seen := map[string]int{}
	hidden := map[string]bool{}
	for _, name := range names {
		tbl, err := b.tables.ResolveTable(b.ctx, name)
		if err != nil {
			return nil, nil, &Error{Pos: te.Pos(), Msg: err.Error(), Err: err}
		}
		for _, h := range tbl.Hidden {
			hidden[h] = true
		}
		scan := &Scan{Table: tbl.Name, Base: tbl.Source, Fields: append([]arrow.Field{}, tbl.Source.Schema().Fields()...)}
		for _, f := range scan.Fields {
			key := strings.ToLower(f.Name)
			if i, ok := seen[key]; ok {
				if !arrow.TypeEqual(fields[i].Type, f.Type) {
					return nil, nil, errAt(te, "FROM %s: column %s is %s in %s but %s in an earlier table", te.Name, f.Name, f.Type, tbl.Name, fields[i].Type)
				}
				continue
			}
			seen[key] = len(fields)
			fields = append(fields, arrow.Field{Name: f.Name, Type: f.Type, Nullable: true})
		}
		scans = append(scans, scan)
	}
	inputs := make([]Node, len(scans))
	for i, scan := range scans {
		p := &Project{Input: scan}
		for _, f := range fields {
			idx := -1
			for j, sf := range scan.Fields {
				if strings.EqualFold(sf.Name, f.Name) {
					idx = j
					break
				}
			}
			var e expr.Expr
			if idx >= 0 {
				e = expr.Col(idx, scan.Fields[idx].Name, f.Type)
			} else if e, err = expr.Lit(nil, f.Type); err != nil {
				return nil, nil, errAt(te, "FROM %s: %v", te.Name, err)
			}
			p.Exprs, p.Names = append(p.Exprs, e), append(p.Names, f.Name)
		}
		inputs[i] = p
	}
	if len(inputs) == 1 {
		return inputs[0], scopeFor(alias, inputs[0].Schema(), hidden), nil
	}
	n := &Union{Inputs: inputs}
	return n, scopeFor(alias, n.Schema(), hidden), nil
}
