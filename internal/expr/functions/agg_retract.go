package functions

import "github.com/apache/arrow-go/v18/arrow"

// RowErrors is an Update that failed on some rows' values (a checked sum
// that would overflow) and changed nothing: Rows are the failing rows of
// the batch, ascending, each judged after the rows before it that did
// not fail, so the batch without them updates cleanly. Errs are their
// errors, one per row; Err is the first one's, as a batch query reports
// it (a copy: callers may name the expression in Errs).
type RowErrors struct {
	Rows []int
	Errs []*ArithError
	Err  *ArithError
}

func (e *RowErrors) Error() string { return e.Err.Error() }
func (e *RowErrors) Unwrap() error { return e.Err }

// Retractable is an accumulator whose Update can fail on a row's values.
// Such an Update changes nothing and returns a *RowErrors. Retract takes
// back a successful Update of the same groups and arguments exactly;
// Truncate forgets groups n and above (numbered for rows the caller then
// dropped). Fallible says whether this instance can fail at all: an
// aggregate updates the fallible accumulators first, so that dropping a
// batch's bad rows only needs these taken back.
type Retractable interface {
	Accumulator
	Fallible() bool
	Retract(groups []uint32, args []arrow.Array)
	Truncate(n int)
}

var _ Retractable = (*sumAcc[int64])(nil)

// Fallible: a BIGINT sum or avg without try_ fails on overflow.
func (s *sumAcc[T]) Fallible() bool {
	_, checked := any(s).(*sumAcc[int64])
	return checked && !s.try
}

// Retract subtracts the rows again: BIGINT addition wraps exactly, so
// this restores the sums bit for bit.
func (s *sumAcc[T]) Retract(groups []uint32, args []arrow.Array) {
	a := args[0]
	if a.DataType().ID() == arrow.NULL {
		return
	}
	vals, vb := s.vals(a), validBytes(a)
	for i, g := range groups {
		if isValid(vb, i) {
			s.st.Sum[g] -= vals[i]
			s.st.Cnt[g]--
		}
	}
}

// Truncate drops the state of groups n and above.
func (s *sumAcc[T]) Truncate(n int) {
	if len(s.st.Sum) > n {
		s.st.Sum, s.st.Cnt = s.st.Sum[:n], s.st.Cnt[:n]
	}
	if len(s.st.Ovf) > n {
		s.st.Ovf = s.st.Ovf[:n]
	}
}
