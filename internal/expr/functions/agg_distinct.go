package functions

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// Distinct wraps an aggregate so that each group sees each distinct
// argument value once: count(DISTINCT x), sum(DISTINCT x), ...
func Distinct(b *AggBound) *AggBound {
	inner := b.New
	return &AggBound{Type: b.Type, Casts: b.Casts, New: func() Accumulator {
		return &distinctAcc{inner: inner(), seen: map[distinctKey]struct{}{}}
	}}
}

type distinctKey struct {
	g uint32
	k string
}

// distinctAcc forwards first occurrences to the inner accumulator. It
// keeps the forwarded rows so that a parallel partial can be merged into
// another (whose seen set differs); a restored state has only the seen
// set and can be merged into, but not merged from.
type distinctAcc struct {
	inner    Accumulator
	seen     map[distinctKey]struct{}
	chunks   []distinctChunk
	restored bool
}

type distinctChunk struct {
	groups []uint32
	args   []arrow.Array
}

// rowKey encodes the argument values of row i; NULL in any argument
// means the row is skipped (SQL DISTINCT aggregates ignore NULLs).
func rowKey(args []arrow.Array, i int, buf []byte) ([]byte, bool) {
	buf = buf[:0]
	for _, a := range args {
		if a.IsNull(i) || a.DataType().ID() == arrow.NULL {
			return nil, false
		}
		switch v := a.(type) {
		case *array.Int32:
			buf = binary.LittleEndian.AppendUint32(buf, uint32(v.Value(i)))
		case *array.Int64:
			buf = binary.LittleEndian.AppendUint64(buf, uint64(v.Value(i)))
		case *array.Float64:
			// As grouping keys: -0.0 is 0.0 and every NaN one value (Spark).
			f := v.Value(i)
			switch {
			case f == 0:
				f = 0
			case math.IsNaN(f):
				f = math.NaN()
			}
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
		case *array.String:
			buf = binary.AppendUvarint(buf, uint64(len(v.Value(i))))
			buf = append(buf, v.Value(i)...)
		default:
			s := types.FormatValue(a, i)
			buf = binary.AppendUvarint(buf, uint64(len(s)))
			buf = append(buf, s...)
		}
	}
	return buf, true
}

func (d *distinctAcc) Update(groups []uint32, args []arrow.Array) error {
	var keep []int32
	var kg []uint32
	var buf []byte
	for i, g := range groups {
		k, ok := rowKey(args, i, buf)
		if !ok {
			continue
		}
		buf = k
		dk := distinctKey{g, string(k)}
		if _, dup := d.seen[dk]; dup {
			continue
		}
		d.seen[dk] = struct{}{}
		keep = append(keep, int32(i))
		kg = append(kg, g)
	}
	taken := make([]arrow.Array, len(args))
	for j, a := range args {
		t, err := take(context.Background(), a, keep)
		if err != nil {
			return err
		}
		taken[j] = t
	}
	if err := d.inner.Update(kg, taken); err != nil {
		return err
	}
	d.chunks = append(d.chunks, distinctChunk{groups: kg, args: taken})
	return nil
}

func (d *distinctAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*distinctAcc)
	if !ok {
		return mergeTypeError(d, other)
	}
	if o.restored {
		return errors.New("cannot merge a restored DISTINCT aggregate state")
	}
	for _, c := range o.chunks {
		gs := make([]uint32, len(c.groups))
		for i, g := range c.groups {
			gs[i] = mapping[g]
		}
		if err := d.Update(gs, c.args); err != nil {
			return err
		}
	}
	return nil
}

func (d *distinctAcc) Result(n int) (arrow.Array, error) { return d.inner.Result(n) }

type distinctState struct {
	Groups []uint32
	Keys   []string
}

func (d *distinctAcc) Snapshot(w io.Writer) error {
	var st distinctState
	for k := range d.seen {
		st.Groups = append(st.Groups, k.g)
		st.Keys = append(st.Keys, k.k)
	}
	if err := snapshotGob(w, st); err != nil {
		return err
	}
	return d.inner.Snapshot(w)
}

func (d *distinctAcc) Restore(r io.Reader) error {
	var st distinctState
	if err := restoreGob(r, &st); err != nil {
		return err
	}
	d.seen = make(map[distinctKey]struct{}, len(st.Keys))
	for i, k := range st.Keys {
		d.seen[distinctKey{st.Groups[i], k}] = struct{}{}
	}
	d.chunks, d.restored = nil, true
	return d.inner.Restore(r)
}
