package functions

// Taker is an optional ability of an Accumulator: Take returns a new
// accumulator whose group i holds the state group groups[i] holds here,
// or an empty group's where groups[i] is negative; the receiver is left
// as it was. It is Merge of the receiver into an empty accumulator with
// the inverse mapping, but costs len(groups) rather than the receiver's
// group count, and folds no group into another (a spilling aggregate
// splits its groups into partitions this way, one Take each).
type Taker interface {
	Accumulator
	Take(groups []int) Accumulator
}

var (
	_ Taker = (*countAcc)(nil)
	_ Taker = (*sumAcc[int64])(nil)
	_ Taker = (*sumAcc[float64])(nil)
)

// takeOf is s's entries at groups, the zero value for a negative group or
// one past s's end (a group that never got a row).
func takeOf[T any](s []T, groups []int) []T {
	out := make([]T, len(groups))
	for i, g := range groups {
		if g >= 0 && g < len(s) {
			out[i] = s[g]
		}
	}
	return out
}

func (c *countAcc) Take(groups []int) Accumulator {
	return &countAcc{onlyTrue: c.onlyTrue, counts: takeOf(c.counts, groups)}
}

func (s *sumAcc[T]) Take(groups []int) Accumulator {
	out := &sumAcc[T]{typ: s.typ, vals: s.vals, avg: s.avg, try: s.try}
	out.st.Sum = takeOf(s.st.Sum, groups)
	out.st.Cnt = takeOf(s.st.Cnt, groups)
	if s.st.Ovf != nil {
		out.st.Ovf = takeOf(s.st.Ovf, groups)
	}
	return out
}
