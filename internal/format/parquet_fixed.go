package format

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// fixedWidth is the value width in bytes when pageColumn can read leaf
// col of the kept row groups as t: a top-level INT32, INT64, FLOAT or
// DOUBLE column with no logical type (or a signed integer one of its
// width) read as the same Arrow type; 0 otherwise. Its dictionary
// entries are gathered by index, which costs less than pqarrow's spaced
// decoding into a builder.
func fixedWidth(md *metadata.FileMetaData, col int, groups []int, t arrow.DataType) int {
	c := md.Schema.Column(col)
	if c.MaxRepetitionLevel() != 0 || c.MaxDefinitionLevel() > 1 {
		return 0
	}
	lt := c.LogicalType()
	_, none := lt.(schema.NoLogicalType)
	intOf := func(bits int8) bool {
		il, ok := lt.(schema.IntLogicalType)
		return none || ok && il.IsSigned() && il.BitWidth() == bits
	}
	w := 0
	switch pt := c.PhysicalType(); {
	case pt == parquet.Types.Int32 && t.ID() == arrow.INT32 && intOf(32):
		w = 4
	case pt == parquet.Types.Int64 && t.ID() == arrow.INT64 && intOf(64):
		w = 8
	case pt == parquet.Types.Float && t.ID() == arrow.FLOAT32 && none:
		w = 4
	case pt == parquet.Types.Double && t.ID() == arrow.FLOAT64 && none:
		w = 8
	}
	if w == 0 || !chunksReadable(md, col, groups) {
		return 0
	}
	return w
}

// readFixed returns the next n rows of a fixed-width column.
func (c *pageColumn) readFixed(n int) (arrow.Array, error) {
	w := c.width
	vals := make([]byte, n*w+8) // +8: room to view as 8-byte words
	var valid []byte
	nulls, got := 0, 0
	for got < n {
		if c.left == 0 {
			ok, err := c.nextPage()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
			continue
		}
		m := min(n-got, c.left)
		values := m
		var defs []int32
		if c.hasDefs {
			defs = grow(&c.defBuf, m)
			k, err := c.defs.decode(defs)
			if err != nil || k < m {
				return nil, c.corrupt("definition levels", err)
			}
			values = 0
			for _, d := range defs {
				if d == int32(c.maxDef) {
					values++
				}
			}
			if values == m {
				defs = nil
			}
		}
		if defs != nil && valid == nil {
			valid = make([]byte, bitutil.BytesForBits(int64(n)))
			bitutil.SetBitsTo(valid, 0, int64(got), true)
		}
		out := vals[got*w : (got+m)*w]
		if c.dictPage {
			idx := grow(&c.idxBuf, values)
			k, err := c.idx.decode(idx)
			if err != nil || k < values {
				return nil, c.corrupt("dictionary indices", err)
			}
			dn := uint32(c.dict.n)
			for _, x := range idx {
				if uint32(x) >= dn {
					return nil, c.corrupt("dictionary index", nil)
				}
			}
			if w == 8 {
				gatherWords(words64(out), words64(c.dict.data), idx, defs, c.maxDef)
			} else {
				gatherWords(words32(out), words32(c.dict.data), idx, defs, c.maxDef)
			}
		} else {
			if len(c.plain) < values*w {
				return nil, c.corrupt("plain values", nil)
			}
			src := c.plain[:values*w]
			c.plain = c.plain[values*w:]
			if defs == nil {
				copy(out, src)
			} else {
				j := 0
				for i, d := range defs {
					if d == int32(c.maxDef) {
						copy(out[i*w:(i+1)*w], src[j*w:(j+1)*w])
						j++
					}
				}
			}
		}
		if valid != nil {
			if defs == nil {
				bitutil.SetBitsTo(valid, int64(got), int64(m), true)
			} else {
				for i, d := range defs {
					if d == int32(c.maxDef) {
						bitutil.SetBit(valid, got+i)
					}
				}
			}
		}
		nulls += m - values
		got += m
		c.left -= m
	}
	if got != n {
		return nil, errShortColumn
	}
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(valid)
	}
	ad := array.NewData(c.typ, n, []*memory.Buffer{vb, memory.NewBufferBytes(vals[:n*w])}, nil, nulls, 0)
	defer ad.Release()
	return array.MakeFromData(ad), nil
}

// words64 and words32 view 8-byte aligned bytes (Go allocations, the
// dictionary's clone) as words.
func words64(b []byte) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/8)
}

func words32(b []byte) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
}

// gatherWords writes dict[idx[j]] for the rows, spread over the NULLs
// when defs is set (rows whose level is below maxDef stay zero).
func gatherWords[T uint32 | uint64](out, dict []T, idx []int32, defs []int32, maxDef int16) {
	if defs == nil {
		out = out[:len(idx)]
		for i, k := range idx {
			out[i] = dict[k]
		}
		return
	}
	j := 0
	for i, d := range defs {
		if d == int32(maxDef) {
			out[i] = dict[idx[j]]
			j++
		}
	}
}
