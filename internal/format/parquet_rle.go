package format

import (
	"encoding/binary"
	"errors"
)

// rleDecoder decodes Parquet's RLE/bit-packing hybrid encoding (levels
// and dictionary indices) of values up to 32 bits wide, a run at a time.
type rleDecoder struct {
	data []byte
	bw   uint
	mask uint64

	rep    int   // values left in the current repeated run
	repVal int32 // its value
	packed int   // values left in the current bit-packed run
	bits   []byte
	bitPos uint
}

var errRLECorrupt = errors.New("corrupt RLE/bit-packed data")

func newRLEDecoder(data []byte, bitWidth int) (rleDecoder, error) {
	if bitWidth < 0 || bitWidth > 32 {
		return rleDecoder{}, errRLECorrupt
	}
	return rleDecoder{data: data, bw: uint(bitWidth), mask: 1<<uint(bitWidth) - 1}, nil
}

// nextRun reads the next run header; false at the end of the data.
func (d *rleDecoder) nextRun() (bool, error) {
	if len(d.data) == 0 {
		return false, nil
	}
	h, n := binary.Uvarint(d.data)
	if n <= 0 {
		return false, errRLECorrupt
	}
	d.data = d.data[n:]
	if h&1 == 0 {
		w := int(d.bw+7) / 8
		if len(d.data) < w || h>>1 > 1<<31 {
			return false, errRLECorrupt
		}
		var v uint32
		for i := w - 1; i >= 0; i-- {
			v = v<<8 | uint32(d.data[i])
		}
		d.data = d.data[w:]
		d.rep, d.repVal = int(h>>1), int32(v)
		return true, nil
	}
	groups := h >> 1
	if groups > 1<<28 {
		return false, errRLECorrupt
	}
	size := int(groups) * int(d.bw)
	if size > len(d.data) {
		// A writer may end the last run early: the values it holds are
		// all the page has.
		size = len(d.data)
		d.packed = size * 8 / max(int(d.bw), 1)
		if d.bw == 0 {
			d.packed = int(groups) * 8
		}
	} else {
		d.packed = int(groups) * 8
	}
	d.bits, d.bitPos = d.data[:size], 0
	d.data = d.data[size:]
	return true, nil
}

// decode fills out with the next values and returns how many it wrote:
// fewer than len(out) only at the end of the data.
func (d *rleDecoder) decode(out []int32) (int, error) {
	i := 0
	for i < len(out) {
		switch {
		case d.rep > 0:
			m := min(d.rep, len(out)-i)
			v := d.repVal
			for j := range out[i : i+m] {
				out[i+j] = v
			}
			d.rep -= m
			i += m
		case d.packed > 0:
			m := min(d.packed, len(out)-i)
			d.unpack(out[i : i+m])
			d.packed -= m
			i += m
		default:
			ok, err := d.nextRun()
			if err != nil {
				return i, err
			}
			if !ok {
				return i, nil
			}
		}
	}
	return i, nil
}

// unpack reads len(out) bit-packed values, LSB first.
func (d *rleDecoder) unpack(out []int32) {
	bw, mask, bits := d.bw, d.mask, d.bits
	pos := d.bitPos
	if bw == 0 {
		clear(out)
		return
	}
	for j := range out {
		at := pos >> 3
		var w uint64
		if int(at)+8 <= len(bits) {
			w = binary.LittleEndian.Uint64(bits[at:])
		} else {
			var tmp [8]byte
			copy(tmp[:], bits[min(int(at), len(bits)):])
			w = binary.LittleEndian.Uint64(tmp[:])
		}
		out[j] = int32((w >> (pos & 7)) & mask)
		pos += bw
	}
	d.bitPos = pos
}
