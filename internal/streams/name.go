package streams

import (
	"strings"

	"sluice/internal/sql"
)

// Name is the name INSERT STREAM runs its stream under, from the target
// table's catalog name (qualified in the session: the engine's
// StreamName) and the statement's WITH options: WITH (name = ...) when
// given and not empty (the last name option wins, as it does for every
// other option), else the table's name, lower-cased, with "_stream"
// appended (analytics.Logs gives analytics.logs_stream). The default
// names the stream's checkpoint folder (checkpoints/<name>), so it must
// not change: a stream renamed would start over from an empty checkpoint.
func Name(table string, with sql.Options) string {
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
