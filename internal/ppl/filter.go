package ppl

import (
	"fmt"
	"strings"
)

// WhereAfterSource is text with "| where cond" right after its source
// command, so cond filters the source's rows before any other command
// (the REST API's filter, which the plugin adds to the index's search).
// A query reading more than one source (a join, lookup, append,
// appendcols, appendpipe or several indices) is refused: the filter
// would have no one table to apply to.
func WhereAfterSource(text, cond string) (string, error) {
	pl, err := Parse(text)
	if err != nil {
		return "", err
	}
	if pl.Source == nil {
		return "", fmt.Errorf("the query has no source")
	}
	if pl.Source.Sub != nil || strings.Contains(pl.Source.Table, ",") {
		return "", fmt.Errorf("cannot apply to a query with several sources")
	}
	for _, c := range pl.Commands {
		switch c.(type) {
		case *Join, *Lookup, *Append, *AppendCol, *AppendPipe:
			return "", fmt.Errorf("cannot apply to a query that joins or appends another source (%s)", commandName(c))
		}
	}
	// The first top-level pipe ends the source command; without one the
	// query is its source alone.
	for _, t := range tokenize(text, pl.At, nil) {
		if t.kind == tkOp && t.text == "|" {
			return text[:t.off] + "| where " + cond + " " + text[t.off:], nil
		}
	}
	return text + " | where " + cond, nil
}

// commandName is a command's PPL keyword, for errors.
func commandName(c Command) string {
	return strings.ToLower(strings.TrimPrefix(fmt.Sprintf("%T", c), "*ppl."))
}
