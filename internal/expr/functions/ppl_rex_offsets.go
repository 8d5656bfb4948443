package functions

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf16"

	"sluice/internal/types"
)

// ppl_rex_offsets(s, 'pattern') is rex's offset_field: for the first
// match of the pattern in s, name=start-end (0-based, end inclusive) of
// each named group that took part, joined by '&' in group order; NULL
// without a match. Offsets count UTF-16 units, as Java's do.
func bindPPLRexOffsets(args []Arg) (*Bound, error) {
	pat, ok := args[1].Value.(string)
	if !args[1].Const || !ok {
		return nil, fmt.Errorf("ppl_rex_offsets: the pattern must be a constant string")
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return nil, fmt.Errorf("ppl_rex_offsets: %w", err)
	}
	return rowFn("ppl_rex_offsets", types.String, ps(pString, pString), func(v []any) (any, error) {
		s := v[0].(string)
		m := re.FindStringSubmatchIndex(s)
		units := func(b int) int { return len(utf16.Encode([]rune(s[:b]))) }
		if m == nil {
			return nil, nil
		}
		var parts []string
		for i, n := range re.SubexpNames() {
			if i == 0 || n == "" || m[2*i] < 0 {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s=%d-%d", n, units(m[2*i]), units(m[2*i+1])-1))
		}
		return strings.Join(parts, "&"), nil
	})(args)
}
