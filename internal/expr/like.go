package expr

import (
	"sluice/internal/types"
)

// Like builds e [NOT] LIKE pattern [ESCAPE escape] (ILIKE when
// caseInsensitive). escape 0 means no escape character; SQL's default is
// backslash. Constant patterns compile once; 'abc%', '%abc' and '%abc%'
// need no regexp.
func Like(e, pattern Expr, escape rune, caseInsensitive, not bool) (Expr, error) {
	name := "like"
	if caseInsensitive {
		name = "ilike"
	}
	args := []Expr{e, pattern}
	if escape != '\\' {
		s := ""
		if escape != 0 {
			s = string(escape)
		}
		esc, err := Lit(s, types.String)
		if err != nil {
			return nil, err
		}
		args = append(args, esc)
	}
	l, err := Call(name, args...)
	if err != nil {
		return nil, err
	}
	if not {
		return Call("not", l)
	}
	return l, nil
}
