package functions

// asciiWords splits ASCII text into words exactly as Bleve's unicode
// tokenizer (Unicode UAX #29 word boundaries) does, without allocating:
// runs of letters, digits and '_' ; letters joined across one of : . '
// ("login.html", "can't"); digits joined across one of , . ; ' ("1,000").
// fn gets each word and its 1-based position and returns false to stop.
// The caller must have checked the text is ASCII. A property test keeps
// this in step with Bleve.
func asciiWords(s string, fn func(word string, pos int) bool) {
	pos := 0
	n := len(s)
	for i := 0; i < n; {
		c := wordClass(s[i])
		if c != clsLetter && c != clsDigit && c != clsUnder {
			i++
			continue
		}
		start := i
		i++
		for i < n {
			d := wordClass(s[i])
			switch d {
			case clsLetter, clsDigit, clsUnder:
				i++
				continue
			case clsMidLetter, clsMidNumLet, clsMidNum:
				if i+1 < n {
					prev, next := wordClass(s[i-1]), wordClass(s[i+1])
					if d != clsMidNum && prev == clsLetter && next == clsLetter ||
						d != clsMidLetter && prev == clsDigit && next == clsDigit {
						i += 2
						continue
					}
				}
			}
			break
		}
		pos++
		if !fn(s[start:i], pos) {
			return
		}
	}
}

const (
	clsOther = iota
	clsLetter
	clsDigit
	clsUnder
	clsMidLetter // :
	clsMidNumLet // . '
	clsMidNum    // , ;
)

// wordClasses maps each byte to its class; a table beats a switch in
// the per-byte loop.
var wordClasses = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = clsLetter, clsLetter
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clsDigit
	}
	t['_'], t[':'], t['.'], t['\''], t[','], t[';'] = clsUnder, clsMidLetter, clsMidNumLet, clsMidNumLet, clsMidNum, clsMidNum
	return t
}()

func wordClass(c byte) int { return int(wordClasses[c]) }

// equalFoldASCII compares an ASCII word with a lower-case term.
func equalFoldASCII(word string, term []byte) bool {
	if len(word) != len(term) {
		return false
	}
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != term[i] {
			return false
		}
	}
	return true
}
