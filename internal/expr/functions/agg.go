package functions

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Accumulator folds rows into groups for one aggregate.
//
// Contract: Update gets groups[i], the dense group id of row i, and the
// evaluated argument arrays (count(*) gets none); groups not seen before
// start empty. Merge folds group g of other (the same aggregate, bound
// the same way) into group mapping[g] of this one. Result returns one
// value per group 0..numGroups-1 (empty groups: count 0, others NULL).
// Snapshot/Restore serialize the whole state. Not safe for concurrent
// use: parallel workers each own one and Merge at the end.
type Accumulator interface {
	Update(groups []uint32, args []arrow.Array) error
	Merge(other Accumulator, mapping []uint32) error
	Result(numGroups int) (arrow.Array, error)
	Snapshot(w io.Writer) error
	Restore(r io.Reader) error
}

// AggBound is an aggregate resolved for its argument types.
type AggBound struct {
	Type  arrow.DataType
	Casts []arrow.DataType // per argument, nil entries: as is
	New   func() Accumulator
}

// AggMaker binds an aggregate; args carry types and constant values (the
// percentile of approx_percentile, say).
type AggMaker func(args []Arg, distinct bool) (*AggBound, error)

// grow extends s so that index g is valid.
func grow[T any](s []T, g uint32) []T {
	if int(g) < len(s) {
		return s
	}
	if int(g) < cap(s) {
		// Grow within capacity: reallocating on every new group made
		// aggregation quadratic in the number of groups.
		return s[:int(g)+1]
	}
	n := max(int(g)+1, 2*cap(s))
	out := make([]T, n)
	copy(out, s)
	return out[:int(g)+1]
}

// maxGroup returns the largest group id, or -1 for no rows.
func maxGroup(groups []uint32) int {
	m := -1
	for _, g := range groups {
		if int(g) > m {
			m = int(g)
		}
	}
	return m
}

// sizeTo extends s so that it holds at least n entries.
func sizeTo[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	return grow(s, uint32(n-1))
}

// snapshotGob writes v length-prefixed, so that several states can share
// one stream (gob's decoder would otherwise read ahead).
func snapshotGob(w io.Writer, v any) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return fmt.Errorf("snapshotting aggregate state: %w", err)
	}
	var hdr [8]byte
	binary.LittleEndian.PutUint64(hdr[:], uint64(buf.Len()))
	if _, err := w.Write(hdr[:]); err != nil {
		return fmt.Errorf("snapshotting aggregate state: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("snapshotting aggregate state: %w", err)
	}
	return nil
}

func restoreGob(r io.Reader, v any) error {
	var hdr [8]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return fmt.Errorf("restoring aggregate state: %w", err)
	}
	n := binary.LittleEndian.Uint64(hdr[:])
	if n > 1<<34 {
		return fmt.Errorf("restoring aggregate state: implausible length %d", n)
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(r, data); err != nil {
		return fmt.Errorf("restoring aggregate state: %w", err)
	}
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(v); err != nil {
		return fmt.Errorf("restoring aggregate state: %w", err)
	}
	return nil
}

func mergeTypeError(a, b Accumulator) error {
	return fmt.Errorf("cannot merge aggregate state %T into %T", b, a)
}

// dec2 is a decimal as gob can encode it.
type dec2 struct {
	Hi int64
	Lo uint64
}

func toDec2(ns []decimal128.Num) []dec2 {
	out := make([]dec2, len(ns))
	for i, n := range ns {
		out[i] = dec2{n.HighBits(), n.LowBits()}
	}
	return out
}

func fromDec2(ds []dec2) []decimal128.Num {
	out := make([]decimal128.Num, len(ds))
	for i, d := range ds {
		out[i] = decimal128.New(d.Hi, d.Lo)
	}
	return out
}

// validityFromBools builds a validity buffer from has flags.
func validityFromBools(has []bool, n int) ([]byte, int) {
	bits := newBits(n)
	nulls := 0
	for g := 0; g < n; g++ {
		if g < len(has) && has[g] {
			bits[g>>3] |= 1 << (uint(g) & 7)
		} else {
			nulls++
		}
	}
	return bits, nulls
}

// bufferOf wraps bytes as an Arrow buffer.
func bufferOf(b []byte) *memory.Buffer { return memory.NewBufferBytes(b) }

var (
	_ Accumulator = (*countAcc)(nil)
	_ Accumulator = (*sumAcc[int64])(nil)
	_ Accumulator = (*sumAcc[float64])(nil)
	_ Accumulator = (*decSumAcc)(nil)
	_ Accumulator = (*minMaxAcc[int64])(nil)
	_ Accumulator = (*minMaxString)(nil)
	_ Accumulator = (*minMaxDec)(nil)
	_ Accumulator = (*boolAcc)(nil)
	_ Accumulator = (*distinctAcc)(nil)
	_ Accumulator = (*momentAcc)(nil)
	_ Accumulator = (*hllAcc)(nil)
	_ Accumulator = (*percentileAcc)(nil)
	_ Accumulator = (*firstAcc)(nil)
	_ Accumulator = (*collectAcc)(nil)
)
