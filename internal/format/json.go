package format

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// The JSON lines decoder. Each record goes through two passes: a scan of
// the top-level object that finds the projected fields (validating their
// values by the grammar, and only balancing brackets of the rest), then a
// decode of just those values into the column builders. Splitting the
// passes means a syntax error is found before anything was appended, so a
// bad row never leaves columns of unequal length.
//
// A file whose first byte is '[' is read as whole-file JSON: one (or
// more) top-level arrays whose elements are rows. A line holding an array
// in a JSON lines file also yields one row per element, as Spark does.

// jsonCol is a compiled column: its conversion plus, for nested types,
// the children.
type jsonCol struct {
	scalar
	name string
	// STRUCT: the fields, looked up by exact then lower-cased name.
	exact    map[string]int
	lower    map[string]int
	allLower bool // every field name is lower case: a lower-case key that missed exact misses lower too
	// names is set when the fields are few and ASCII: a linear scan that
	// compares lengths first is then faster than hashing every key.
	names []string
	kids  []*jsonCol
	spans []span
	// ARRAY element or MAP value.
	elem *jsonCol
}

// span is where a struct field's value was found: b[lo:hi] of the
// record (or struct value) scanned. Offsets rather than a slice keep
// spans free of pointers, so clearing them for every record needs no
// write barriers while the collector runs.
type span struct {
	lo, hi int
	set    bool
	exact  bool
}

// of is the span's value within b, the bytes it was found in.
func (s span) of(b []byte) []byte { return b[s.lo:s.hi] }

func compileJSON(name string, t arrow.DataType, tsLayout string) (*jsonCol, error) {
	k, ok := kindOf(t)
	if !ok {
		return nil, fmt.Errorf("column %s: type %s is not supported by the JSON reader", name, t)
	}
	c := &jsonCol{scalar: newScalar(t, k, tsLayout), name: name}
	switch tt := t.(type) {
	case *arrow.StructType:
		if err := c.setFields(tt.Fields(), tsLayout); err != nil {
			return nil, err
		}
	case *arrow.ListType:
		e, err := compileJSON(name+"[]", tt.Elem(), tsLayout)
		if err != nil {
			return nil, err
		}
		c.elem = e
	case *arrow.MapType:
		if !strings.EqualFold(tt.KeyType().Name(), "utf8") && tt.KeyType().ID() != arrow.STRING {
			return nil, fmt.Errorf("column %s: map keys must be STRING", name)
		}
		e, err := compileJSON(name+"{}", tt.ItemType(), tsLayout)
		if err != nil {
			return nil, err
		}
		c.elem = e
	}
	return c, nil
}

func (c *jsonCol) setFields(fields []arrow.Field, tsLayout string) error {
	c.exact = make(map[string]int, len(fields))
	c.lower = make(map[string]int, len(fields))
	c.allLower = true
	c.kids = make([]*jsonCol, len(fields))
	c.spans = make([]span, len(fields))
	ascii := len(fields) <= 16
	for i, f := range fields {
		for j := 0; j < len(f.Name); j++ {
			if f.Name[j] >= 0x80 {
				ascii = false
			}
		}
		kid, err := compileJSON(f.Name, f.Type, tsLayout)
		if err != nil {
			return err
		}
		c.kids[i] = kid
		if _, dup := c.exact[f.Name]; !dup {
			c.exact[f.Name] = i
		}
		l := strings.ToLower(f.Name)
		if l != f.Name {
			c.allLower = false
		}
		if _, dup := c.lower[l]; !dup {
			c.lower[l] = i
		}
	}
	if ascii {
		c.names = make([]string, len(fields))
		for i, f := range fields {
			c.names[i] = f.Name
		}
	}
	return nil
}

func equalFoldASCII(a string, b []byte) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x >= 'A' && x <= 'Z' {
			x += 'a' - 'A'
		}
		if y >= 'A' && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// jsonReader decodes JSON lines (or whole-file JSON arrays) into batches.
type jsonReader struct {
	rowBase
	top   *jsonCol
	lines *lineReader
	whole *wholeJSON // set when the file is one or more top-level arrays

	keyBuf, lowBuf, strBuf []byte
	stack                  []byte
	// shape is the previous record's top-level keys in order, with what
	// lookup said of each: lines of one file mostly share their keys,
	// so a key that matches byte for byte skips scanning and lookup.
	shape []shapeKey
	// quotes is the quote bitmask of the record being scanned the plain
	// way (jsonscan_plain.go).
	quotes []uint64
	// bytewise turns the plain way off (tests compare the two ways).
	bytewise bool
	// ascii says the record being decoded is plain and all ASCII, so
	// its strings are valid UTF-8 as they stand.
	ascii bool
}

// shapeKey is one key of the previous record: its literal (quotes
// included, never with escapes, and the ':' when it followed at once)
// and lookup's answer for it. lo and hi are the literal's first and last
// eight bytes (lo masked when shorter), compared as words.
type shapeKey struct {
	lit    string
	colon  bool
	lo, hi uint64
	mask   uint64
	idx    int
	exact  bool
}

func newShapeKey(lit []byte, colon bool, idx int, exact bool) shapeKey {
	k := shapeKey{lit: string(lit), colon: colon, idx: idx, exact: exact}
	var w [8]byte
	copy(w[:], lit)
	k.lo = binary.LittleEndian.Uint64(w[:])
	k.mask = ^uint64(0)
	if len(lit) < 8 {
		k.mask = 1<<(8*len(lit)) - 1
	} else {
		k.hi = binary.LittleEndian.Uint64(lit[len(lit)-8:])
	}
	return k
}

// at reports whether b starts with the key's literal.
func (k *shapeKey) at(b []byte) bool {
	n := len(k.lit)
	if len(b) < 8 || n > 16 {
		return len(b) >= n && string(b[:n]) == k.lit
	}
	if (binary.LittleEndian.Uint64(b)^k.lo)&k.mask != 0 {
		return false
	}
	return n <= 8 || len(b) >= n && binary.LittleEndian.Uint64(b[n-8:]) == k.hi
}

// maxShapeKeys bounds the keys remembered per record.
const maxShapeKeys = 64

var _ StatsReader = (*jsonReader)(nil)

func newJSONReader(ctx context.Context, file File, schema *arrow.Schema, opts Options) (*jsonReader, error) {
	r := &jsonReader{}
	r.init(file, schema, opts)
	fields := make([]arrow.Field, len(r.dataCols))
	for i, c := range r.dataCols {
		fields[i] = schema.Field(c)
	}
	r.top = &jsonCol{name: "<row>"}
	if err := r.top.setFields(fields, goLayout(opts.TimestampFormat)); err != nil {
		r.rb.Release()
		return nil, fmt.Errorf("reading %s: %w", file.Name, err)
	}
	rc, cut, err := openLines(ctx, file, opts.Compression, jsonArrayHead)
	if err != nil {
		r.rb.Release()
		return nil, err
	}
	// Parts are cut only from UTF-8 files (Splittable), so a charset
	// is decoded over the whole file.
	rc = decodeCharset(rc, opts.Encoding)
	r.rc = rc
	br := bufio.NewReaderSize(rc, streamBufSize(file))
	if cut {
		// openLines saw lines at the file's start: this part is lines too.
		if err := r.startCut(ctx); err != nil {
			r.Close()
			return nil, err
		}
		r.lines = newLineReader(br, opts.MaxLineBytes, br.Size())
		r.lines.keepBOM = true
		return r, nil
	}
	// multiLine: the file is JSON values that may span lines, read as a
	// whole-file document, as a file starting with '[' always is.
	if first, err := firstByte(br); err == nil && (first == '[' || opts.MultiLine) {
		if head, _ := br.Peek(3); bytes.Equal(head, []byte("\xef\xbb\xbf")) {
			br.Discard(3)
		}
		r.whole = &wholeJSON{r: br, max: opts.MaxLineBytes, line: 1}
	} else {
		r.lines = newLineReader(br, opts.MaxLineBytes, br.Size())
		r.lines.sep = opts.LineSep
	}
	return r, nil
}

// jsonArrayHead says from a file's first bytes that it is (or may be) a
// JSON array rather than lines, so it cannot be read in parts: the first
// byte past a byte-order mark and whitespace is '[', or there is none.
func jsonArrayHead(head []byte) bool {
	h := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	i := skipWS(h, 0)
	return i >= len(h) || h[i] == '['
}

// firstByte peeks past whitespace and a byte-order mark.
func firstByte(br *bufio.Reader) (byte, error) {
	for n := 64; ; n *= 2 {
		head, err := br.Peek(n)
		h := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
		if i := skipWS(h, 0); i < len(h) {
			return h[i], nil
		}
		if err != nil || n >= br.Size() {
			return 0, io.EOF
		}
	}
}

// Next returns the next batch of up to BatchSize rows, or io.EOF.
func (r *jsonReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.done || r.rb == nil {
		return nil, io.EOF
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for r.pending < r.opts.BatchSize {
		var rec []byte
		var line int64
		var err error
		if r.whole != nil {
			rec, line, err = r.whole.next()
		} else {
			rec, line, err = r.lines.next()
			if err == nil && r.lines.tooLong {
				err = r.badSyntax(line, rec, fmt.Sprintf("record longer than %d bytes", r.opts.MaxLineBytes))
				if err != nil {
					r.err = err
					return nil, err
				}
				continue
			}
		}
		if err == io.EOF {
			r.done = true
			break
		}
		if err != nil {
			r.err = r.readErr(err)
			return nil, r.err
		}
		if err := r.record(rec, line); err != nil {
			r.err = err
			return nil, err
		}
	}
	if r.pending == 0 {
		return nil, io.EOF
	}
	return r.flush(), nil
}

// record decodes one line (or whole-file element) into zero or more rows.
func (r *jsonReader) record(rec []byte, line int64) error {
	i := skipWS(rec, 0)
	if i == len(rec) {
		return nil // blank lines are not rows
	}
	if rec[i] != '[' {
		return r.object(rec, line)
	}
	var err error
	if _, r.stack, err = validate(rec, i, r.stack); err != nil {
		return r.badSyntax(line, rec, err.Error())
	}
	it := newArrIter(rec[i:])
	for {
		el, ok := it.next()
		if !ok {
			return nil
		}
		if err := r.object(el, line); err != nil {
			return err
		}
	}
}

// object decodes one record that should be a JSON object into a row.
func (r *jsonReader) object(rec []byte, line int64) error {
	if err := r.scanTop(rec); err != nil {
		return r.badSyntax(line, rec, err.Error())
	}
	top := r.top
	if r.opts.Mode == DropMalformed {
		for k, kid := range top.kids {
			if sp := top.spans[k]; sp.set {
				if reason := r.decode(kid, nil, sp.of(rec)); reason != "" {
					return r.reportBad(line, rec, "column "+kid.name+": "+reason)
				}
			}
		}
	}
	var reason string
	for k, kid := range top.kids {
		b := r.rb.Field(r.dataCols[k])
		sp := top.spans[k]
		if !sp.set {
			b.AppendNull()
			continue
		}
		if why := r.decode(kid, b, sp.of(rec)); why != "" && reason == "" {
			reason = "column " + kid.name + ": " + why
		}
	}
	if reason == "" {
		r.finishRow(line, nil)
		return nil
	}
	if err := r.reportBad(line, rec, reason); err != nil {
		return err
	}
	r.finishRow(line, rec)
	return nil
}

// scanTop finds the projected fields of a top-level object, filling
// r.top.spans. A record without backslashes goes the plain way first;
// whatever that does not accept (a syntax error among others) is scanned
// again here, so errors are reported the one way.
func (r *jsonReader) scanTop(b []byte) error {
	top := r.top
	for k := range top.spans {
		top.spans[k] = span{}
	}
	r.ascii = false
	if !r.bytewise {
		var bs, high bool
		r.quotes, bs, high = quoteMasks(r.quotes, b)
		if !bs && r.scanTopPlain(b, r.quotes) {
			r.ascii = !high
			return nil
		}
		for k := range top.spans {
			top.spans[k] = span{}
		}
	}
	return r.scanTopBytewise(b)
}

// scanTopBytewise is scanTop for any record, spans already cleared.
func (r *jsonReader) scanTopBytewise(b []byte) error {
	top := r.top
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return synErr(b, i, "'{' (each record must be a JSON object)")
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		i++
	} else {
		for n := 0; ; n++ {
			if i >= len(b) || b[i] != '"' {
				return synErr(b, i, "object key")
			}
			var kend, idx int
			var exact bool
			if n < len(r.shape) && r.shape[n].at(b[i:]) {
				// The literal has no backslash and ends in its only
				// unescaped quote (and a ':'), so the key is exactly it.
				sk := &r.shape[n]
				idx, exact = sk.idx, sk.exact
				if sk.colon {
					i = skipWS(b, i+len(sk.lit))
				} else {
					kend = i + len(sk.lit)
				}
			} else {
				end, esc, err := scanString(b, i)
				if err != nil {
					return err
				}
				kend = end
				idx, exact = r.learnKey(n, b, i, kend, esc)
			}
			if kend > 0 {
				i = skipWS(b, kend)
				if i >= len(b) || b[i] != ':' {
					return synErr(b, i, "':'")
				}
				i = skipWS(b, i+1)
			}
			var end int
			var err error
			if idx >= 0 {
				end, err = r.validateValue(b, i)
			} else {
				end, err = skipValue(b, i)
			}
			if err != nil {
				return err
			}
			if idx >= 0 && (exact || !top.spans[idx].exact) {
				top.spans[idx] = span{lo: i, hi: end, set: true, exact: exact}
			}
			i = skipWS(b, end)
			if i < len(b) && b[i] == ',' {
				i = skipWS(b, i+1)
				continue
			}
			if i < len(b) && b[i] == '}' {
				i++
				break
			}
			return synErr(b, i, "',' or '}'")
		}
	}
	if i = skipWS(b, i); i < len(b) {
		return synErr(b, i, "end of record")
	}
	return nil
}

// learnKey looks up the key literal b[i:kend], the n-th of its record,
// and remembers it in r.shape for the next record.
func (r *jsonReader) learnKey(n int, b []byte, i, kend int, esc bool) (int, bool) {
	idx, exact := r.lookup(r.top, b[i:kend], esc)
	if !esc && n <= len(r.shape) && n < maxShapeKeys {
		colon := kend < len(b) && b[kend] == ':'
		lit := b[i:kend]
		if colon {
			lit = b[i : kend+1]
		}
		sk := newShapeKey(lit, colon, idx, exact)
		if n == len(r.shape) {
			r.shape = append(r.shape, sk)
		} else {
			r.shape[n] = sk
		}
	}
	return idx, exact
}

// validateValue checks one value by the grammar; scalars, the common
// case, skip validate's state machine.
func (r *jsonReader) validateValue(b []byte, i int) (end int, err error) {
	if i < len(b) {
		switch c := b[i]; {
		case c == '"':
			end, _, err = scanString(b, i)
			return end, err
		case c == '-' || c >= '0' && c <= '9':
			return scanNumber(b, i)
		}
	}
	end, r.stack, err = validate(b, i, r.stack)
	return end, err
}

// lookup finds the struct field a key literal names: exact match first,
// then case-insensitive. It returns -1 for keys no one asked for.
func (r *jsonReader) lookup(c *jsonCol, lit []byte, escaped bool) (int, bool) {
	key := lit[1 : len(lit)-1]
	if escaped {
		r.keyBuf = unescape(r.keyBuf[:0], lit)
		key = r.keyBuf
	}
	if c.names != nil {
		cand := -1
		for i, n := range c.names {
			if len(n) != len(key) {
				continue
			}
			if n == string(key) {
				return i, true
			}
			if cand < 0 && equalFoldASCII(n, key) {
				cand = i
			}
		}
		return cand, false
	}
	if i, ok := c.exact[string(key)]; ok {
		return i, true
	}
	low, changed := r.lowBuf[:0], false
	for _, ch := range key {
		if ch >= 0x80 {
			low = append(low[:0], bytes.ToLower(key)...)
			changed = true
			break
		}
		if ch >= 'A' && ch <= 'Z' {
			ch += 'a' - 'A'
			changed = true
		}
		low = append(low, ch)
	}
	r.lowBuf = low
	if !changed && c.allLower {
		return -1, false
	}
	if i, ok := c.lower[string(low)]; ok {
		return i, false
	}
	return -1, false
}
