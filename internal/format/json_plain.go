package format

// scanTopPlain is scanTop for a record b without backslashes, whose
// quote bitmask is q: every string ends at the next quote, so values no
// one reads are stepped over by mask lookups rather than scanned. It
// fills r.top.spans exactly as scanTop would and reports true, or reports
// false (spans half filled) wherever scanTop would fail or the record is
// not the common shape; scanTop then starts over and says what is wrong.
func (r *jsonReader) scanTopPlain(b []byte, q []uint64) bool {
	top := r.top
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipWS(b, i+1) == len(b)
	}
	for n := 0; ; n++ {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		var idx int
		var exact bool
		if n < len(r.shape) && r.shape[n].at(b[i:]) {
			// No backslash, so the literal's quote is the key's end.
			sk := &r.shape[n]
			idx, exact = sk.idx, sk.exact
			i += len(sk.lit)
			if !sk.colon {
				if i = skipWS(b, i); i >= len(b) || b[i] != ':' {
					return false
				}
				i++
			}
		} else {
			e := nextQuote(q, i+1)
			if e < 0 {
				return false
			}
			idx, exact = r.learnKey(n, b, i, e+1, false)
			if i = skipWS(b, e+1); i >= len(b) || b[i] != ':' {
				return false
			}
			i++
		}
		if i >= len(b) {
			return false
		}
		if b[i] <= ' ' {
			if i = skipWS(b, i); i >= len(b) {
				return false
			}
		}
		end := -1
		switch c := b[i]; {
		case c == '"':
			if e := nextQuote(q, i+1); e >= 0 {
				end = e + 1
			}
		case idx >= 0:
			e, err := r.validateValue(b, i)
			if err == nil {
				end = e
			}
		case c == '{' || c == '[':
			end = skipPlainNested(b, q, i)
		case c == ',' || c == '}' || c == ']' || c == ':':
		default:
			end = i
			for end < len(b) && !scalarEnd[b[end]] {
				end++
			}
		}
		if end < 0 {
			return false
		}
		if idx >= 0 && (exact || !top.spans[idx].exact) {
			top.spans[idx] = span{lo: i, hi: end, set: true, exact: exact}
		}
		if end >= len(b) {
			return false
		}
		i = end
		if b[i] <= ' ' {
			if i = skipWS(b, i); i >= len(b) {
				return false
			}
		}
		if b[i] == ',' {
			i++
			if i < len(b) && b[i] <= ' ' {
				i = skipWS(b, i)
			}
			continue
		}
		if b[i] == '}' {
			return skipWS(b, i+1) == len(b)
		}
		return false
	}
}
