package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr/functions"
)

// The planner expands generators (explode, hop) and session windows
// itself; these helpers give it the types and window arithmetic so that
// it agrees with the scalar tumble/window functions.

// ExplodeType is the type of the rows explode(x) yields: an ARRAY's
// element type, or STRUCT<key, value> for a MAP.
func ExplodeType(t arrow.DataType) (arrow.DataType, error) { return functions.ExplodeType(t) }

// WindowType is STRUCT<start: TIMESTAMP, end: TIMESTAMP>, the value of
// tumble, window, hop and session.
var WindowType = functions.WindowType

// TumbleStart is the start (micros) of the size-long window holding ts.
func TumbleStart(ts, size int64) int64 { return functions.TumbleStart(ts, size) }

// HopStarts lists the starts of every size-long window sliding by slide
// that holds ts, earliest first.
func HopStarts(ts, size, slide int64) []int64 { return functions.HopStarts(ts, size, slide) }

// IntervalArg reads a constant window size or gap argument (an INTERVAL
// literal or a string such as '5 minutes') as microseconds; fn names the
// function in errors.
func IntervalArg(fn string, e Expr) (int64, error) {
	a := functions.Arg{Type: e.Type()}
	if l, ok := e.(*Literal); ok {
		a.Const, a.Value = true, l.Value
	}
	return functions.IntervalArg(fn, a)
}
