package ppl

import (
	"fmt"

	"sluice/internal/sql"
)

// Error is a PPL error at a 1-based line and column; Syntax tells a
// parse error from a translation one (an unknown field for fields -, a
// lookup column that does not exist).
type Error struct {
	Line, Col int
	Msg       string
	Syntax    bool
}

// Error prints one line: "PPL syntax error at line 1:14: ...".
func (e *Error) Error() string {
	kind := "error"
	if e.Syntax {
		kind = "syntax error"
	}
	return fmt.Sprintf("PPL %s at line %d:%d: %s", kind, e.Line, e.Col, e.Msg)
}

func syntaxErr(p sql.Pos, format string, args ...any) *Error {
	return &Error{Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...), Syntax: true}
}

func errAt(p sql.Pos, format string, args ...any) *Error {
	return &Error{Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
}
