package sql

import (
	"math/rand"
	"strings"
	"testing"
)

// TestUnescapeSpark: each literal's value as pyspark 3.5.3 gives it
// (SELECT <literal>), checked there.
func TestUnescapeSpark(t *testing.T) {
	for _, tc := range []struct{ lit, want string }{
		{`'it''s'`, "its"},
		{`'a'   'b' 'c'`, "abc"},
		{`'it\'s'`, "it's"},
		{`"q\"uote"`, `q"uote`},
		{`"a""b"`, "ab"},
		{`"a" 'b'`, "ab"},
		{`'a\\b'`, `a\b`},
		{`'a\nb\tc\rd'`, "a\nb\tc\rd"},
		{`'a\bb'`, "a\bb"},
		{`'a\Zb'`, "a\x1ab"},
		{`'a\0b'`, "a\x00b"},
		{`'100\%'`, `100\%`},
		{`'a\_b'`, `a\_b`},
		{`'\u0041\u00e9x'`, "Aéx"},
		{`'\uZZ'`, "uZZ"},
		{`'\u004'`, "u004"},
		{`'\U0001F600'`, "😀"},
		{`'\uD83D\uDE00'`, "😀"},
		{`'\uD800'`, "?"},
		{`'\101'`, "A"},
		{`'\012'`, "\n"},
		{`'\077'`, "?"},
		{`'\0777'`, "?7"},
		{`'\07'`, "\x007"},
		{`'\7'`, "7"},
		{`'\400'`, "400"},
		{`'\18'`, "18"},
		{`'\d+'`, "d+"},
		{`'\q\x41'`, "qx41"},
		{`'\é'`, "é"},
		{`'\\'`, `\`},
		{`''''`, ""},
		{`r'\d+'`, `\d+`},
		{`R"it's"`, "it's"},
	} {
		st, err := ParseOne("SELECT " + tc.lit)
		if err != nil {
			t.Errorf("%s: %v", tc.lit, err)
			continue
		}
		l, ok := st.(*SelectStmt).Query.Body.(*Select).Items[0].Expr.(*Literal)
		if !ok || l.Value != tc.want {
			t.Errorf("%s = %#v, want %q", tc.lit, st.(*SelectStmt).Query.Body.(*Select).Items[0].Expr, tc.want)
		}
	}
}

// TestQuoteStringRoundTrip: what QuoteString prints reads back as the
// same string, for strings made of the characters escapes involve.
func TestQuoteStringRoundTrip(t *testing.T) {
	alphabet := []string{"'", `"`, `\`, "\n", "\t", "\r", "\x00", "0", "7", "u", "U", "%", "_", "d", "é", "😀", " ", "a"}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for n := rng.Intn(8); n > 0; n-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		s := b.String()
		e, err := ParseExpr(QuoteString(s))
		if err != nil {
			t.Fatalf("%q printed as %s: %v", s, QuoteString(s), err)
		}
		if l, ok := e.(*Literal); !ok || l.Value != s {
			t.Fatalf("%q printed as %s reads back as %#v", s, QuoteString(s), e)
		}
	}
}
