package functions

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"sluice/internal/types"
)

// count(*) counts rows, count(x, ...) rows where every x is not NULL,
// count_if(cond) rows where cond is TRUE.
func makeCount(args []Arg, distinct bool) (*AggBound, error) {
	return &AggBound{Type: types.BigInt, New: func() Accumulator { return &countAcc{} }}, nil
}

func makeCountIf(args []Arg, distinct bool) (*AggBound, error) {
	if err := asBool(args[0].Type, "count_if"); err != nil {
		return nil, err
	}
	return &AggBound{Type: types.BigInt, Casts: []arrow.DataType{types.Boolean}, New: func() Accumulator { return &countAcc{onlyTrue: true} }}, nil
}

type countAcc struct {
	onlyTrue bool
	counts   []int64
}

func (c *countAcc) Update(groups []uint32, args []arrow.Array) error {
	if m := maxGroup(groups); m >= 0 {
		c.counts = sizeTo(c.counts, m+1)
	}
	if len(args) == 0 {
		for _, g := range groups {
			c.counts[g]++
		}
		return nil
	}
	if c.onlyTrue {
		vals, valid := boolBits(args[0])
		for i, g := range groups {
			if isValid(valid, i) && bitutil.BitIsSet(vals, i) {
				c.counts[g]++
			}
		}
		return nil
	}
	valid, _ := validityAnd(len(groups), args...)
	if valid == nil {
		for _, g := range groups {
			c.counts[g]++
		}
		return nil
	}
	defer valid.Release()
	vb := valid.Bytes()
	for i, g := range groups {
		if bitutil.BitIsSet(vb, i) {
			c.counts[g]++
		}
	}
	return nil
}

func (c *countAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*countAcc)
	if !ok {
		return mergeTypeError(c, other)
	}
	for g, n := range o.counts {
		t := mapping[g]
		c.counts = grow(c.counts, t)
		c.counts[t] += n
	}
	return nil
}

func (c *countAcc) Result(numGroups int) (arrow.Array, error) {
	out := make([]int64, numGroups)
	copy(out, c.counts)
	return fixedArray(types.BigInt, out, nil), nil
}

func (c *countAcc) Snapshot(w io.Writer) error { return snapshotGob(w, c.counts) }
func (c *countAcc) Restore(r io.Reader) error  { return restoreGob(r, &c.counts) }
