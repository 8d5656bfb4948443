package functions

import (
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// stddev/stddev_samp, stddev_pop, variance/var_samp, var_pop: Welford's
// running mean and sum of squared deviations per group, merged with
// Chan's parallel formula. Sample statistics of fewer than two values
// are NULL.
func makeMoment(name string, sqrt, sample bool) AggMaker {
	return func(args []Arg, distinct bool) (*AggBound, error) {
		if t := types.Normalize(args[0].Type); !types.IsNumeric(t) && t.ID() != arrow.NULL {
			return nil, fmt.Errorf("%s expects a numeric argument, got %s", name, sqlName(t))
		}
		return &AggBound{Type: types.Double, Casts: []arrow.DataType{types.Double}, New: func() Accumulator {
			return &momentAcc{sqrt: sqrt, sample: sample}
		}}, nil
	}
}

type momentState struct {
	N    []int64
	Mean []float64
	M2   []float64
}

type momentAcc struct {
	sqrt, sample bool
	st           momentState
}

func (m *momentAcc) size(g int) {
	m.st.N = sizeTo(m.st.N, g)
	m.st.Mean = sizeTo(m.st.Mean, g)
	m.st.M2 = sizeTo(m.st.M2, g)
}

func (m *momentAcc) Update(groups []uint32, args []arrow.Array) error {
	m.size(maxGroup(groups) + 1)
	if args[0].DataType().ID() == arrow.NULL {
		return nil
	}
	x := f64s(args[0])
	vb := validBytes(args[0])
	for i, g := range groups {
		if !isValid(vb, i) {
			continue
		}
		m.st.N[g]++
		d := x[i] - m.st.Mean[g]
		m.st.Mean[g] += d / float64(m.st.N[g])
		m.st.M2[g] += d * (x[i] - m.st.Mean[g])
	}
	return nil
}

func (m *momentAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*momentAcc)
	if !ok {
		return mergeTypeError(m, other)
	}
	for g, nb := range o.st.N {
		if nb == 0 {
			continue
		}
		t := mapping[g]
		m.size(int(t) + 1)
		na := m.st.N[t]
		n := na + nb
		d := o.st.Mean[g] - m.st.Mean[t]
		m.st.Mean[t] += d * float64(nb) / float64(n)
		m.st.M2[t] += o.st.M2[g] + d*d*float64(na)*float64(nb)/float64(n)
		m.st.N[t] = n
	}
	return nil
}

func (m *momentAcc) Result(n int) (arrow.Array, error) {
	out := make([]float64, n)
	valid := newValidity(n)
	vb := valid.Bytes()
	for g := range out {
		var cnt int64
		if g < len(m.st.N) {
			cnt = m.st.N[g]
		}
		den := float64(cnt)
		if m.sample {
			den--
		}
		if den <= 0 {
			vb[g>>3] &^= 1 << (uint(g) & 7)
			continue
		}
		v := max(m.st.M2[g]/den, 0)
		if m.sqrt {
			v = math.Sqrt(v)
		}
		out[g] = v
	}
	return fixedArray(types.Double, out, valid), nil
}

func (m *momentAcc) Snapshot(w io.Writer) error { return snapshotGob(w, &m.st) }
func (m *momentAcc) Restore(r io.Reader) error  { return restoreGob(r, &m.st) }
