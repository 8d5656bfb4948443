package sparkstmt

import (
	"slices"
	"strings"

	"sluice/internal/expr/functions"
	"sluice/internal/sql"
)

// ShowFunctions is SHOW [USER | SYSTEM | ALL] FUNCTIONS [LIKE 'pattern']
// from the function registry: every function's name and aliases, sorted.
// There are no user functions, so USER lists none. Operators ("+",
// "and") are syntax here, not functions one calls by name, and are left
// out.
func (e *Runner) ShowFunctions(s *sql.ShowFunctions) *Result {
	var rows [][]string
	if !strings.EqualFold(s.Scope, "USER") {
		var names []string
		for _, d := range functions.All() {
			if d.Operator {
				continue
			}
			for _, n := range append([]string{d.Name}, d.Aliases...) {
				if sparkPattern(s.Like, n) {
					names = append(names, n)
				}
			}
		}
		slices.Sort(names)
		for _, n := range slices.Compact(names) {
			rows = append(rows, []string{n})
		}
	}
	return stringRows([]string{"function"}, rows)
}
