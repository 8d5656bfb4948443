package format

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// The second pass of the JSON lines decoder (json.go): a validated value
// into its column builder.

// decode appends the validated JSON value v to b (nil: only check) and
// returns why it did not fit the column, if it did not. It appends
// exactly one value either way, so columns stay aligned.
func (r *jsonReader) decode(c *jsonCol, b array.Builder, v []byte) string {
	switch v[0] {
	case 'n':
		if b != nil {
			b.AppendNull()
		}
		return ""
	case '"':
		if c.kind >= kStruct {
			return c.bad(b, v)
		}
		s := v[1 : len(v)-1]
		if r.ascii && c.kind == kString {
			if b != nil {
				b.(*array.StringBuilder).BinaryBuilder.Append(s)
			}
			return ""
		}
		if bytes.IndexByte(s, '\\') >= 0 {
			r.strBuf = unescape(r.strBuf[:0], v)
			s = r.strBuf
		}
		return c.appendText(b, s, false)
	case 't', 'f':
		switch c.kind {
		case kBool:
			if b != nil {
				b.(*array.BooleanBuilder).Append(v[0] == 't')
			}
			return ""
		case kString:
			if b != nil {
				b.(*array.StringBuilder).Append(string(v))
			}
			return ""
		}
		return c.bad(b, v)
	case '{', '[':
		obj := v[0] == '{'
		switch {
		case obj && c.kind == kStruct:
			return r.decodeStruct(c, b, v)
		case obj && c.kind == kMap:
			return r.decodeMap(c, b, v)
		case !obj && c.kind == kList:
			return r.decodeList(c, b, v)
		case c.kind == kString:
			// A nested value read as STRING is its JSON text.
			if b != nil {
				appendUTF8(b.(*array.StringBuilder), v)
			}
			return ""
		}
		return c.bad(b, v)
	}
	// A number.
	if c.kind == kBool || c.kind >= kStruct {
		return c.bad(b, v)
	}
	return c.appendText(b, v, true)
}

func (r *jsonReader) decodeStruct(c *jsonCol, b array.Builder, v []byte) string {
	for k := range c.spans {
		c.spans[k] = span{}
	}
	it := newObjIter(v)
	for {
		key, val, ok := it.next()
		if !ok {
			break
		}
		idx, exact := r.lookup(c, key, bytes.IndexByte(key, '\\') >= 0)
		if idx >= 0 && (exact || !c.spans[idx].exact) {
			c.spans[idx] = span{lo: it.i - len(val), hi: it.i, set: true, exact: exact}
		}
	}
	var sb *array.StructBuilder
	if b != nil {
		sb = b.(*array.StructBuilder)
		sb.Append(true)
	}
	var reason string
	for k, kid := range c.kids {
		var kb array.Builder
		if sb != nil {
			kb = sb.FieldBuilder(k)
		}
		sp := c.spans[k]
		if !sp.set {
			if kb != nil {
				kb.AppendNull()
			}
			continue
		}
		if why := r.decode(kid, kb, sp.of(v)); why != "" && reason == "" {
			reason = kid.name + ": " + why
		}
	}
	return reason
}

func (r *jsonReader) decodeList(c *jsonCol, b array.Builder, v []byte) string {
	var lb *array.ListBuilder
	var vb array.Builder
	if b != nil {
		lb = b.(*array.ListBuilder)
		lb.Append(true)
		vb = lb.ValueBuilder()
	}
	var reason string
	it := newArrIter(v)
	for {
		el, ok := it.next()
		if !ok {
			return reason
		}
		if why := r.decode(c.elem, vb, el); why != "" && reason == "" {
			reason = why
		}
	}
}

func (r *jsonReader) decodeMap(c *jsonCol, b array.Builder, v []byte) string {
	var mb *array.MapBuilder
	var kb *array.StringBuilder
	var ib array.Builder
	if b != nil {
		mb = b.(*array.MapBuilder)
		mb.Append(true)
		kb = mb.KeyBuilder().(*array.StringBuilder)
		ib = mb.ItemBuilder()
	}
	var reason string
	it := newObjIter(v)
	for {
		key, val, ok := it.next()
		if !ok {
			return reason
		}
		if kb != nil {
			r.keyBuf = unescape(r.keyBuf[:0], key)
			appendUTF8(kb, r.keyBuf)
		}
		if why := r.decode(c.elem, ib, val); why != "" && reason == "" {
			reason = why
		}
	}
}
