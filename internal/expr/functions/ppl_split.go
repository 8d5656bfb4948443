package functions

import (
	"strings"

	"sluice/internal/types"
)

// ppl_split is PPL's split(s, delimiter): the delimiter is text, not
// Spark's regular expression; an empty delimiter splits into characters
// and an empty string is an empty array (Spark gives [""]).
var bindPPLSplit = rowFn("ppl_split", types.Array(types.String), ps(pString, pString), func(v []any) (any, error) {
	s, d := v[0].(string), v[1].(string)
	if s == "" {
		return []any{}, nil
	}
	parts := strings.Split(s, d)
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, nil
})
