package engine

import (
	"context"
	"strings"

	"sluice/internal/sql"
)

// StreamName is the name INSERT STREAM s runs its stream under, as the
// engine will record it when it runs s under ctx (ctx's session gives
// the current database): WITH (name = ...) when given and not empty,
// else the target table's catalog name, lower-cased, with "_stream"
// appended (USE analytics; INSERT STREAM INTO Logs ... is
// analytics.logs_stream). Callers that report a submitted stream (the
// query manager, the server's async queries) ask here, so they name the
// stream the catalog and STOP STREAM know.
func (e *Engine) StreamName(ctx context.Context, s *sql.InsertStream) string {
	table := s.Table
	if q, err := e.qualify(ctx, table); err == nil {
		table = q
	}
	return streamName(table, s.With)
}

// streamName derives the name from the target table's catalog name
// (qualifyStatement's) and the statement's WITH options; the last name
// option wins, as it does for every other option. The default names the
// stream's checkpoint folder (checkpoints/<name>), so it must not change:
// a stream renamed would start over from an empty checkpoint.
func streamName(table string, with sql.Options) string {
	name := ""
	for _, o := range with {
		if strings.EqualFold(o.Key, "name") {
			name = o.Value.Value
		}
	}
	if name == "" {
		name = strings.ToLower(table) + "_stream"
	}
	return name
}
