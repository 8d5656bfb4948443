// Package usererr marks the errors a user caused and can fix (a bad
// option value, a table that does not exist, a row a cast cannot
// convert) apart from the failures of the machinery (a disk that is
// full, a bug). The server answers the first kind 4xx and the rest 500;
// a stream retries only what is neither (see IsUser).
//
// An error is a user error when something in its chain implements
// UserError. The package that detects the mistake marks it where it
// happens, with Wrap, Errorf or a sentinel from New, so nothing up the
// stack has to match message text.
package usererr

import (
	"errors"
	"fmt"
)

// Kind says what the user got wrong; the server maps each to a status.
type Kind uint8

const (
	// Invalid is a statement, option or value the engine refuses (400).
	Invalid Kind = iota + 1
	// NotFound names a table, view, stream, database or location that is
	// not there (404).
	NotFound
	// Exists creates something that already exists (400).
	Exists
	// Forbidden is a statement the user's role may not run (403).
	Forbidden
	// Unsupported is a statement the engine knows but does not build (400).
	Unsupported
	// Evaluation is a row an expression cannot compute: a division by
	// zero, an overflow, a cast of 'abc' to BIGINT (400).
	Evaluation
)

func (k Kind) String() string {
	switch k {
	case Invalid:
		return "invalid"
	case NotFound:
		return "not found"
	case Exists:
		return "already exists"
	case Forbidden:
		return "forbidden"
	case Unsupported:
		return "unsupported"
	case Evaluation:
		return "evaluation"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// UserError is an error the user can fix by changing what they asked
// for. UserErrorKind says which kind of mistake it is; it never changes
// for a given error value.
type UserError interface {
	error
	UserErrorKind() Kind
}

// marked is err marked as a user error of kind; its text is err's.
type marked struct {
	kind Kind
	err  error
}

var _ UserError = (*marked)(nil)

func (e *marked) Error() string       { return e.err.Error() }
func (e *marked) Unwrap() error       { return e.err }
func (e *marked) UserErrorKind() Kind { return e.kind }

// Wrap marks err as a user error of kind, keeping its text and chain
// (errors.Is and errors.As still find what err wraps). Wrap(k, nil) is
// nil.
func Wrap(kind Kind, err error) error {
	if err == nil {
		return nil
	}
	return &marked{kind: kind, err: err}
}

// Errorf is fmt.Errorf marked as a user error of kind.
func Errorf(kind Kind, format string, args ...any) error {
	return &marked{kind: kind, err: fmt.Errorf(format, args...)}
}

// New is a sentinel user error, for errors.Is: catalog.ErrNotFound is
// New(NotFound, "not found").
func New(kind Kind, text string) error {
	return &marked{kind: kind, err: errors.New(text)}
}

// KindOf is the kind of the first user error in err's chain; ok is false
// when there is none (an internal failure).
func KindOf(err error) (kind Kind, ok bool) {
	var ue UserError
	if errors.As(err, &ue) {
		return ue.UserErrorKind(), true
	}
	return 0, false
}

// IsUser reports whether err is a user error of any kind.
func IsUser(err error) bool {
	_, ok := KindOf(err)
	return ok
}
