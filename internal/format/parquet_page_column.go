package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// pageColumn reads one top-level column of a Parquet file's kept row
// groups page by page, instead of through pqarrow's record reader, which
// copies every STRING value out of the column chunk's dictionary into a
// builder. Here a chunk's dictionary page becomes one Arrow array, and a
// run of rows from its dictionary-encoded pages is just their indices:
// the reader hands them over as an Arrow dictionary array sharing that
// one dictionary (DictReader), or gathers the values in one pass. Pages
// that fell back to PLAIN encoding (a dictionary that grew too large
// mid-chunk) are copied as values. Fixed-width numeric columns take the
// same pages, their values gathered from the dictionary by index
// (parquet_fixed.go).
//
// Only columns whose chunks use PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY
// values and RLE levels, with no repetition and at most one definition
// level, are read this way (byteArrayEligible, fixedWidth); the others
// stay with pqarrow.
type pageColumn struct {
	pf     *file.Reader
	col    int   // leaf index in the file
	groups []int // kept row groups, in order
	gi     int   // next group to open
	typ    arrow.DataType
	maxDef int16
	width  int // bytes of a fixed-width value; 0 for STRING/BINARY

	pages file.PageReader
	dict  *chunkDict // current chunk's dictionary, nil before its page

	left     int // levels left in the current data page
	defs     rleDecoder
	hasDefs  bool
	dictPage bool // the current page's values are dictionary indices
	idx      rleDecoder
	plain    []byte // PLAIN values left in the current page

	defBuf, idxBuf []int32
}

// chunkDict is one column chunk's dictionary: offsets and bytes as an
// Arrow STRING/BINARY array, shared by every batch of the chunk.
type chunkDict struct {
	n       int     // entries
	offsets []int32 // nil for fixed-width values
	data    []byte
	arr     arrow.Array
}

func (d *chunkDict) value(i int32) []byte { return d.data[d.offsets[i]:d.offsets[i+1]] }

// byteArrayEligible reports whether leaf col of every kept row group can
// be read by pageColumn as type t.
func byteArrayEligible(md *metadata.FileMetaData, col int, groups []int, t arrow.DataType) bool {
	if t.ID() != arrow.STRING && t.ID() != arrow.BINARY {
		return false
	}
	c := md.Schema.Column(col)
	if c.PhysicalType() != parquet.Types.ByteArray || c.MaxRepetitionLevel() != 0 || c.MaxDefinitionLevel() > 1 {
		return false
	}
	if t.ID() == arrow.STRING {
		if _, ok := c.LogicalType().(schema.StringLogicalType); !ok {
			return false
		}
	}
	return chunksReadable(md, col, groups)
}

// chunksReadable reports whether every kept chunk of leaf col uses only
// the encodings pageColumn decodes, unencrypted.
func chunksReadable(md *metadata.FileMetaData, col int, groups []int) bool {
	for _, g := range groups {
		cc, err := md.RowGroup(g).ColumnChunk(col)
		if err != nil || cc.CryptoMetadata() != nil {
			return false
		}
		for _, e := range cc.Encodings() {
			switch e {
			case parquet.Encodings.Plain, parquet.Encodings.PlainDict, parquet.Encodings.RLEDict, parquet.Encodings.RLE:
			default:
				return false
			}
		}
	}
	return true
}

func newPageColumn(pf *file.Reader, col int, groups []int, t arrow.DataType, width int) *pageColumn {
	return &pageColumn{pf: pf, col: col, groups: groups, typ: t, width: width, maxDef: pf.MetaData().Schema.Column(col).MaxDefinitionLevel()}
}

// byteArrayRun is n rows of the column: dictionary indices into dict
// while every row so far came from one chunk's dictionary pages, else
// the values themselves.
type byteArrayRun struct {
	n     int
	size  int    // rows asked for
	valid []byte // validity bitmap, nil while no row is NULL
	nulls int

	dict *chunkDict // nil once plain
	idx  []int32

	offsets []int32
	data    []byte
}

func (r *byteArrayRun) setNull(i int) {
	if r.valid == nil {
		r.valid = make([]byte, bitutil.BytesForBits(int64(r.size)))
		bitutil.SetBitsTo(r.valid, 0, int64(i), true)
	}
	r.nulls++
}

func (r *byteArrayRun) setValid(i int) {
	if r.valid != nil {
		bitutil.SetBit(r.valid, i)
	}
}

// toPlain turns the indices read so far into values.
func (r *byteArrayRun) toPlain() {
	d := r.dict
	size := 0
	for i, k := range r.idx {
		if r.valid == nil || bitutil.BitIsSet(r.valid, i) {
			size += int(d.offsets[k+1] - d.offsets[k])
		}
	}
	r.offsets = make([]int32, 1, r.size+1)
	r.data = make([]byte, 0, size)
	for i, k := range r.idx {
		if r.valid == nil || bitutil.BitIsSet(r.valid, i) {
			r.data = append(r.data, d.value(k)...)
		}
		r.offsets = append(r.offsets, int32(len(r.data)))
	}
	r.dict, r.idx = nil, nil
}

// read returns the next n rows; fewer only when the row groups end.
func (c *pageColumn) read(n int) (*byteArrayRun, error) {
	r := &byteArrayRun{size: n}
	first := true
	for r.n < n {
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
		m := min(n-r.n, c.left)
		switch {
		case first && c.dictPage:
			r.dict, r.idx = c.dict, make([]int32, 0, n)
		case first:
			r.offsets = make([]int32, 1, n+1)
		case r.dict != nil && (!c.dictPage || c.dict != r.dict):
			r.toPlain()
		}
		first = false
		if err := c.readRows(r, m); err != nil {
			return nil, err
		}
		c.left -= m
	}
	if first {
		r.offsets = []int32{0}
	}
	return r, nil
}

// readRows appends m rows of the current page to r.
func (c *pageColumn) readRows(r *byteArrayRun, m int) error {
	values := m
	var defs []int32
	if c.hasDefs {
		defs = grow(&c.defBuf, m)
		got, err := c.defs.decode(defs)
		if err != nil || got < m {
			return c.corrupt("definition levels", err)
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
	if c.dictPage {
		idx := grow(&c.idxBuf, values)
		got, err := c.idx.decode(idx)
		if err != nil || got < values {
			return c.corrupt("dictionary indices", err)
		}
		dn := int32(c.dict.n)
		for _, k := range idx {
			if uint32(k) >= uint32(dn) {
				return c.corrupt(fmt.Sprintf("dictionary index %d of %d", k, dn), nil)
			}
		}
		if r.dict != nil {
			base := r.n
			if defs == nil {
				r.idx = append(r.idx, idx...)
				if r.valid != nil {
					bitutil.SetBitsTo(r.valid, int64(base), int64(m), true)
				}
			} else {
				j := 0
				for i, d := range defs {
					if d == int32(c.maxDef) {
						r.idx = append(r.idx, idx[j])
						r.setValid(base + i)
						j++
					} else {
						r.idx = append(r.idx, 0)
						r.setNull(base + i)
					}
				}
			}
			r.n += m
			return nil
		}
		j := 0
		for i := 0; i < m; i++ {
			if defs != nil && defs[i] != int32(c.maxDef) {
				r.setNull(r.n)
			} else {
				r.data = append(r.data, c.dict.value(idx[j])...)
				r.setValid(r.n)
				j++
			}
			r.n++
			r.offsets = append(r.offsets, int32(len(r.data)))
		}
		return nil
	}
	for i := 0; i < m; i++ {
		if defs != nil && defs[i] != int32(c.maxDef) {
			r.setNull(r.n)
		} else {
			if len(c.plain) < 4 {
				return c.corrupt("plain value", nil)
			}
			l := binary.LittleEndian.Uint32(c.plain)
			if uint64(l) > uint64(len(c.plain)-4) {
				return c.corrupt("plain value length", nil)
			}
			r.data = append(r.data, c.plain[4:4+l]...)
			c.plain = c.plain[4+l:]
			r.setValid(r.n)
		}
		r.n++
		r.offsets = append(r.offsets, int32(len(r.data)))
	}
	return nil
}

func grow(buf *[]int32, n int) []int32 {
	if cap(*buf) < n {
		*buf = make([]int32, n)
	}
	return (*buf)[:n]
}

func (c *pageColumn) corrupt(what string, err error) error {
	if err != nil {
		return fmt.Errorf("column %s: %s: %w", c.name(), what, err)
	}
	return fmt.Errorf("column %s: corrupt %s", c.name(), what)
}

func (c *pageColumn) name() string { return c.pf.MetaData().Schema.Column(c.col).Path() }

// nextPage moves to the next data page, opening the next row group's
// chunk at the end of one; false when every kept group is read.
func (c *pageColumn) nextPage() (bool, error) {
	for {
		if c.pages == nil {
			if c.gi >= len(c.groups) {
				return false, nil
			}
			pr, err := c.pf.RowGroup(c.groups[c.gi]).GetColumnPageReader(c.col)
			if err != nil {
				return false, fmt.Errorf("column %s: %w", c.name(), err)
			}
			c.gi++
			c.pages, c.dict = pr, nil
		}
		if !c.pages.Next() {
			err := c.pages.Err()
			c.pages.Close()
			c.pages = nil
			if err != nil {
				return false, fmt.Errorf("column %s: %w", c.name(), err)
			}
			continue
		}
		switch p := c.pages.Page().(type) {
		case *file.DictionaryPage:
			if err := c.readDict(p); err != nil {
				return false, err
			}
		case *file.DataPageV1:
			data := p.Data()
			if c.maxDef > 0 {
				if p.DefinitionLevelEncoding() != parquet.Encodings.RLE || len(data) < 4 {
					return false, c.corrupt("definition level encoding", nil)
				}
				l := binary.LittleEndian.Uint32(data)
				if uint64(l) > uint64(len(data)-4) {
					return false, c.corrupt("definition levels length", nil)
				}
				if err := c.startPage(int(p.NumValues()), data[4:4+l], data[4+l:], parquet.Encoding(p.Encoding())); err != nil {
					return false, err
				}
			} else if err := c.startPage(int(p.NumValues()), nil, data, parquet.Encoding(p.Encoding())); err != nil {
				return false, err
			}
			return true, nil
		case *file.DataPageV2:
			data := p.Data()
			rl, dl := int(p.RepetitionLevelByteLen()), int(p.DefinitionLevelByteLen())
			if rl < 0 || dl < 0 || rl+dl > len(data) {
				return false, c.corrupt("level lengths", nil)
			}
			if err := c.startPage(int(p.NumValues()), data[rl:rl+dl], data[rl+dl:], parquet.Encoding(p.Encoding())); err != nil {
				return false, err
			}
			return true, nil
		}
	}
}

// startPage sets up the decoders of a data page of n levels.
func (c *pageColumn) startPage(n int, defs, values []byte, enc parquet.Encoding) error {
	c.hasDefs = c.maxDef > 0
	if c.hasDefs {
		d, err := newRLEDecoder(defs, bits.Len(uint(c.maxDef)))
		if err != nil {
			return c.corrupt("definition levels", err)
		}
		c.defs = d
	}
	switch enc {
	case parquet.Encodings.PlainDict, parquet.Encodings.RLEDict:
		if c.dict == nil {
			return c.corrupt("page: dictionary indices before the dictionary page", nil)
		}
		if len(values) < 1 {
			return c.corrupt("dictionary indices", nil)
		}
		d, err := newRLEDecoder(values[1:], int(values[0]))
		if err != nil {
			return c.corrupt("dictionary indices", err)
		}
		c.idx, c.dictPage, c.plain = d, true, nil
	case parquet.Encodings.Plain:
		c.dictPage, c.plain = false, values
	default:
		return fmt.Errorf("column %s: unsupported encoding %s", c.name(), enc)
	}
	c.left = n
	return nil
}

// readDict copies a PLAIN dictionary page into the chunk's dictionary.
func (c *pageColumn) readDict(p *file.DictionaryPage) error {
	if e := parquet.Encoding(p.Encoding()); e != parquet.Encodings.Plain && e != parquet.Encodings.PlainDict {
		return fmt.Errorf("column %s: unsupported dictionary encoding %s", c.name(), e)
	}
	if c.dict != nil {
		return c.corrupt("chunk: a second dictionary page", nil)
	}
	data := p.Data()
	n := int(p.NumValues())
	if c.width > 0 {
		if n < 0 || n > len(data)/c.width {
			return c.corrupt("dictionary page", nil)
		}
		c.dict = &chunkDict{n: n, data: slices.Clone(data[:n*c.width])}
		return nil
	}
	if n < 0 || n > len(data)/4 {
		return c.corrupt("dictionary page", nil)
	}
	d := &chunkDict{n: n, offsets: make([]int32, 1, n+1), data: make([]byte, 0, len(data)-4*n)}
	for i := 0; i < n; i++ {
		if len(data) < 4 {
			return c.corrupt("dictionary page", nil)
		}
		l := binary.LittleEndian.Uint32(data)
		if uint64(l) > uint64(len(data)-4) {
			return c.corrupt("dictionary page", nil)
		}
		d.data = append(d.data, data[4:4+l]...)
		d.offsets = append(d.offsets, int32(len(d.data)))
		data = data[4+l:]
	}
	d.arr = byteArrayArray(c.typ, n, nil, 0, d.offsets, d.data)
	c.dict = d
	return nil
}

// byteArrayArray wraps offsets and bytes as a STRING or BINARY array.
func byteArrayArray(t arrow.DataType, n int, valid []byte, nulls int, offsets []int32, data []byte) arrow.Array {
	var vb *memory.Buffer
	if valid != nil && nulls > 0 {
		vb = memory.NewBufferBytes(valid)
	}
	ad := array.NewData(t, n, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)), memory.NewBufferBytes(data)}, nil, nulls, 0)
	defer ad.Release()
	return array.MakeFromData(ad)
}

// plainArray returns the run's values as a STRING/BINARY array.
func (r *byteArrayRun) plainArray(t arrow.DataType) arrow.Array {
	if r.dict != nil {
		r.toPlain()
	}
	return byteArrayArray(t, r.n, r.valid, r.nulls, r.offsets, r.data)
}

// dictArray returns the run as a dictionary array over the chunk's
// dictionary, or false when its rows are not all dictionary indices of
// one chunk.
func (r *byteArrayRun) dictArray(t arrow.DataType) (arrow.Array, bool) {
	if r.dict == nil || r.n == 0 {
		return nil, false
	}
	var vb *memory.Buffer
	if r.valid != nil && r.nulls > 0 {
		vb = memory.NewBufferBytes(r.valid)
	}
	ix := array.NewData(arrow.PrimitiveTypes.Int32, r.n, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(r.idx))}, nil, r.nulls, 0)
	defer ix.Release()
	ia := array.MakeFromData(ix)
	defer ia.Release()
	return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: t}, ia, r.dict.arr), true
}

func (c *pageColumn) close() {
	if c.pages != nil {
		c.pages.Close()
		c.pages = nil
	}
}

var errShortColumn = errors.New("column ended before the other columns")
