package sparkstmt

import (
	"context"
	"errors"

	"sluice/internal/catalog"
	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// errNoCache is CACHE TABLE's answer: Sluice has no table cache, and
// accepting the statement would promise a speed-up that never comes.
var errNoCache = usererr.New(usererr.Unsupported, "Sluice keeps no table cache: every query reads the table's current data; drop CACHE TABLE, or copy the rows with CREATE TABLE ... AS SELECT")

// cacheTable is CACHE [LAZY] TABLE t (refused: errNoCache) and UNCACHE
// TABLE [IF EXISTS] t, which holds at once since nothing is ever cached:
// it only checks the name, as Spark does.
func (e *Runner) cacheTable(ctx context.Context, s *sql.TableCommand) (*Result, error) {
	if v, err := e.h.LookupView(ctx, s.Name); err == nil && v != nil {
		if s.Command == sql.CacheTable {
			return nil, errNoCache
		}
		return message("view %s is not cached", v.Name), nil
	}
	t, err := e.commandTable(ctx, s)
	if err != nil {
		if s.Command == sql.UncacheTable && s.IfExists && errors.Is(err, catalog.ErrNotFound) {
			return message("table %s does not exist", s.Name), nil
		}
		return nil, err
	}
	if s.Command == sql.CacheTable {
		return nil, errNoCache
	}
	return message("table %s is not cached", t.Spec.Name), nil
}

// ClearCache is CLEAR CACHE: there is no cache, so it holds at once.
func (e *Runner) ClearCache() *Result { return message("nothing cached") }
