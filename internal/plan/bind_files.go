package plan

import (
	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/sql"
)

// bindFiles binds FROM json.`path` (csv, parquet): the files as a table of
// this query only, through the Tables' FileTables ability. Streams read
// tables, not paths: a path's files are found anew by every query, and a
// stream needs a name for its checkpoint.
func (b *Binder) bindFiles(te *sql.TableName) (Node, *scope, error) {
	if b.Streaming {
		return nil, nil, errAt(te, "a stream cannot read %s.`%s` directly; CREATE TABLE over the path and stream from the table", te.Format, te.Name)
	}
	ft, ok := b.tables.(FileTables)
	if !ok {
		return nil, nil, errAt(te, "querying files directly (%s.`...`) is not available here", te.Format)
	}
	tbl, err := ft.ResolveFiles(b.ctx, te.Format, te.Name)
	if err != nil {
		return nil, nil, &Error{Pos: te.Pos(), Msg: err.Error(), Err: err}
	}
	hidden := map[string]bool{}
	for _, h := range tbl.Hidden {
		hidden[h] = true
	}
	scan := &Scan{Table: tbl.Name, Base: tbl.Source, Fields: append([]arrow.Field{}, tbl.Source.Schema().Fields()...)}
	alias := te.Alias
	if alias == "" {
		alias = te.Format
	}
	return scan, scopeFor(alias, scan.Schema(), hidden), nil
}
