package sql

import (
	"fmt"

	"sluice/internal/usererr"
)

// Error is a syntax error at a 1-based line and column.
type Error struct {
	Line, Col int
	Msg       string
}

// Error prints e.g. "syntax error at line 3:14: expected ')' but found 'FROM'".
func (e *Error) Error() string {
	return fmt.Sprintf("syntax error at line %d:%d: %s", e.Line, e.Col, e.Msg)
}

var _ usererr.UserError = (*Error)(nil)

// UserErrorKind: a syntax error is always the statement's.
func (e *Error) UserErrorKind() usererr.Kind { return usererr.Invalid }

func errAt(p Pos, format string, args ...any) *Error {
	return &Error{Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
}
