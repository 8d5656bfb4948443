package functions

import (
	"math/rand"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// TestASCIIWordsMatchBleve compares the fast tokenizer with Bleve's on
// many random ASCII strings built from the characters that matter.
func TestASCIIWordsMatchBleve(t *testing.T) {
	tok := unicode.NewUnicodeTokenizer()
	alphabet := "aZq09_.:',; -/@\"\t?=&%"
	rng := rand.New(rand.NewSource(1))
	fixed := []string{"GET /login.html HTTP/1.1", "can't stop", "1,000.50 USD", "a.b. c", "foo:bar", "__init__", "x_1 _ __", "3.14.15", "a'b'c", "1;2", "v1.2.3-beta"}
	for k := 0; k < 20000; k++ {
		var s string
		if k < len(fixed) {
			s = fixed[k]
		} else {
			b := make([]byte, rng.Intn(16))
			for i := range b {
				b[i] = alphabet[rng.Intn(len(alphabet))]
			}
			s = string(b)
		}
		var want []string
		var wantPos []int
		for _, tk := range tok.Tokenize([]byte(s)) {
			want = append(want, string(tk.Term))
			wantPos = append(wantPos, tk.Position)
		}
		var got []string
		var gotPos []int
		asciiWords(s, func(w string, p int) bool {
			got = append(got, w)
			gotPos = append(gotPos, p)
			return true
		})
		if len(got) != len(want) {
			t.Fatalf("%q: got %q, Bleve %q", s, got, want)
		}
		for i := range got {
			if got[i] != want[i] || gotPos[i] != wantPos[i] {
				t.Fatalf("%q: got %q %v, Bleve %q %v", s, got, gotPos, want, wantPos)
			}
		}
	}
}

// TestMatchFastPathAgreesWithBleve runs match and match_phrase through
// the ASCII path and through Bleve's analyzer on random texts.
func TestMatchFastPathAgreesWithBleve(t *testing.T) {
	if _, err := StandardAnalyzer(); err != nil {
		t.Fatal(err)
	}
	words := []string{"the", "Quick", "brown", "fox", "login", "LOGIN.html", "a", "of", "can't", "1,000", "x_y", "and"}
	seps := []string{" ", "  ", "/", ". ", ", ", "-", ":", "'"}
	queries := []string{"login", "quick brown", "the fox", "brown of fox", "can't", "1,000 x_y", "login.html", "a of the"}
	rng := rand.New(rand.NewSource(2))
	for k := 0; k < 5000; k++ {
		var text string
		for i := rng.Intn(8); i > 0; i-- {
			text += words[rng.Intn(len(words))] + seps[rng.Intn(len(seps))]
		}
		for _, qs := range queries {
			q, err := analyzeQuery(qs)
			if err != nil {
				t.Fatal(err)
			}
			for _, phrase := range []bool{false, true} {
				fast := (&textMatcher{q: q, phrase: phrase}).match(text)
				slowQ := *q
				slowQ.ascii = false
				slow := (&textMatcher{q: &slowQ, phrase: phrase}).match(text)
				if fast != slow {
					t.Fatalf("phrase=%v query %q text %q: fast %v, Bleve %v", phrase, qs, text, fast, slow)
				}
			}
		}
	}
}
