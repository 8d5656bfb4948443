package job

import (
	"maps"

	"sluice/internal/sql"
)

// Definition is what a stream, view or index is: its name and kind, the
// query it runs as canonical text, the table it writes, and its WITH
// options (checked by Check). Each kind keeps its fields inside its own
// catalog entry (streams.Spec, flint.ViewSpec, flint's index spec, under
// JSON keys that never change) and gives them in this one shape through
// its Definition method. Storage holds the real values; what is shown
// (SHOW, DESCRIBE, the API, logs) goes through Display, which redacts.
//
// The query is text Sluice printed from a parsed or built tree, with no
// redaction (a query holds no OPTIONS, and literals print as written), so
// it parses back to the tree it came from.
type Definition struct {
	Name    string
	Kind    Kind
	Query   string
	Sink    string
	Options map[string]string
}

// Display is d as it may be shown: option values redacted as
// sql.RedactValue does (credentials as ***, URL passwords hidden) and
// URL passwords in the query hidden.
func (d Definition) Display() Definition {
	out := d
	out.Query = sql.RedactText(d.Query)
	if d.Options != nil {
		out.Options = maps.Clone(d.Options)
		for k, v := range out.Options {
			out.Options[k] = sql.RedactValue(k, v)
		}
	}
	return out
}
