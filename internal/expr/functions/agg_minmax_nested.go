package functions

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// minMaxNested is min/max of ARRAY and STRUCT values in Spark's order
// (Order: element by element, so max([9], [10]) is [10]). The best value
// of each group is kept as one Arrow array, rebuilt once per batch with
// a take over the old bests and the batch.
type minMaxNested struct {
	typ   arrow.DataType
	isMax bool
	cmp   ValueCmp
	best  arrow.Array // group g's value at row g; NULL: none yet
}

var _ Accumulator = (*minMaxNested)(nil)

func newMinMaxNested(t arrow.DataType, isMax bool) (func() Accumulator, error) {
	c, err := Order(t)
	if err != nil {
		return nil, err
	}
	return func() Accumulator { return &minMaxNested{typ: t, isMax: isMax, cmp: c} }, nil
}

func (m *minMaxNested) better(a arrow.Array, i int, b arrow.Array, j int) bool {
	r := m.cmp(a, i, b, j)
	if m.isMax {
		return r > 0
	}
	return r < 0
}

// fold makes group groups[k] hold the better of its best and x[k] for
// every non-NULL x[k].
func (m *minMaxNested) fold(groups []uint32, x arrow.Array) error {
	old := 0
	if m.best != nil {
		old = m.best.Len()
	}
	n := max(old, maxGroup(groups)+1)
	// pick[g]: -1 keeps the old best, otherwise the row of x that wins.
	pick := make([]int, n)
	for g := range pick {
		pick[g] = -1
	}
	for k, g := range groups {
		if x.IsNull(k) {
			continue
		}
		switch p := pick[g]; {
		case p >= 0:
			if m.better(x, k, x, p) {
				pick[g] = k
			}
		case int(g) >= old || m.best.IsNull(int(g)) || m.better(x, k, m.best, int(g)):
			pick[g] = k
		}
	}
	parts := []arrow.Array{x}
	if m.best != nil {
		parts = []arrow.Array{m.best, x}
	}
	all, err := array.Concatenate(parts, mem)
	if err != nil {
		return err
	}
	defer all.Release()
	idx := make([]int32, n)
	for g := range idx {
		switch {
		case pick[g] >= 0:
			idx[g] = int32(old + pick[g])
		case g < old:
			idx[g] = int32(g)
		default:
			idx[g] = -1
		}
	}
	nb, err := Take(context.Background(), all, idx)
	if err != nil {
		return err
	}
	if m.best != nil {
		m.best.Release()
	}
	m.best = nb
	return nil
}

func (m *minMaxNested) Update(groups []uint32, args []arrow.Array) error {
	if len(groups) == 0 {
		return nil
	}
	return m.fold(groups, args[0])
}

func (m *minMaxNested) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*minMaxNested)
	if !ok {
		return mergeTypeError(m, other)
	}
	if o.best == nil || o.best.Len() == 0 {
		return nil
	}
	return m.fold(mapping[:o.best.Len()], o.best)
}

func (m *minMaxNested) Result(n int) (arrow.Array, error) {
	idx := make([]int32, n)
	for g := range idx {
		idx[g] = -1
		if m.best != nil && g < m.best.Len() {
			idx[g] = int32(g)
		}
	}
	src := m.best
	if src == nil {
		return nullArray(m.typ, n), nil
	}
	return Take(context.Background(), src, idx)
}

func (m *minMaxNested) Snapshot(w io.Writer) error {
	b := m.best
	if b == nil {
		b = nullArray(m.typ, 0)
		defer b.Release()
	}
	return writeArray(w, b)
}

func (m *minMaxNested) Restore(r io.Reader) error {
	arr, err := readArray(r)
	if err != nil {
		return err
	}
	if m.best != nil {
		m.best.Release()
	}
	m.best = arr
	return nil
}
