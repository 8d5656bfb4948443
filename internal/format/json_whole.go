package format

import (
	"bytes"
	"io"
)

// wholeJSON yields the elements of top-level arrays (and top-level
// objects) of a file, with the line each starts on. It holds a window of
// the stream, not the file: about one element plus a read chunk.
type wholeJSON struct {
	r       io.Reader
	max     int // longest element accepted
	data    []byte
	p       int // consumed up to here
	eof     bool
	inArray bool
	lastPos int
	line    int64
	broken  bool
}

func (w *wholeJSON) lineAt(p int) int64 {
	w.line += int64(bytes.Count(w.data[w.lastPos:p], []byte{'\n'}))
	w.lastPos = p
	return w.line
}

// more drops the consumed prefix and reads another chunk.
func (w *wholeJSON) more() error {
	if w.p > 0 {
		w.lineAt(w.p)
		n := copy(w.data, w.data[w.p:])
		w.data = w.data[:n]
		w.lastPos -= w.p
		w.p = 0
	}
	if cap(w.data)-len(w.data) < 256<<10 {
		grown := make([]byte, len(w.data), 2*cap(w.data)+1<<20)
		copy(grown, w.data)
		w.data = grown
	}
	n, err := w.r.Read(w.data[len(w.data):cap(w.data)])
	w.data = w.data[:len(w.data)+n]
	if err == io.EOF {
		w.eof = true
		return nil
	}
	return err
}

// next returns the next element; the slice is valid until the next call.
func (w *wholeJSON) next() ([]byte, int64, error) {
	for !w.broken {
		d := w.data
		p := skipWS(d, w.p)
		if p >= len(d) {
			if w.eof {
				return nil, 0, io.EOF
			}
			if err := w.more(); err != nil {
				return nil, 0, err
			}
			continue
		}
		if !w.inArray {
			if d[p] == '[' {
				w.inArray = true
				w.p = p + 1
				continue
			}
		} else {
			switch d[p] {
			case ',':
				w.p = p + 1
				continue
			case ']':
				w.inArray = false
				w.p = p + 1
				continue
			}
		}
		end, err := skipValue(d, p)
		if (err != nil || end >= len(d)) && !w.eof && len(d)-p <= w.max {
			// The element may go on past the window: read on and retry.
			w.p = p
			if err := w.more(); err != nil {
				return nil, 0, err
			}
			continue
		}
		if err != nil || len(d)-p > w.max && end >= len(d) {
			// The structure is broken (or the element too long): the
			// rest is one bad record.
			w.broken = true
			return d[p:min(len(d), p+w.max)], w.lineAt(p), nil
		}
		w.p = end
		return d[p:end], w.lineAt(p), nil
	}
	return nil, 0, io.EOF
}
