package functions

import (
	"bytes"
	"context"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	blevereg "github.com/blevesearch/bleve/v2/registry"

	"sluice/internal/types"
)

// match(col, 'words') is TRUE when any analyzed query term occurs in the
// analyzed text (OpenSearch's default OR semantics); match_phrase(col,
// 'words') when the analyzed terms occur consecutively and in order.
// Both use Bleve's standard analyzer (Unicode word segmentation, lower
// case, English stop words), so they agree with the embedded index. A
// query of only stop words matches nothing.

var (
	analyzerOnce sync.Once
	analyzer     analysis.Analyzer
	analyzerErr  error
)

// StandardAnalyzer returns Bleve's standard analyzer, built once; it is
// stateless and safe for concurrent use.
func StandardAnalyzer() (analysis.Analyzer, error) {
	analyzerOnce.Do(func() {
		analyzer, analyzerErr = standard.AnalyzerConstructor(nil, blevereg.NewCache())
	})
	return analyzer, analyzerErr
}

// queryTerms is an analyzed query: terms in order with their relative
// positions (stop words leave gaps, as in Bleve's phrase matching).
type queryTerms struct {
	terms [][]byte
	pos   []int
	ascii bool // every term is ASCII: ASCII text can take the fast path
}

func analyzeQuery(text string) (*queryTerms, error) {
	a, err := StandardAnalyzer()
	if err != nil {
		return nil, fmt.Errorf("loading the standard analyzer: %w", err)
	}
	q := &queryTerms{ascii: true}
	for _, tok := range a.Analyze([]byte(text)) {
		q.terms = append(q.terms, tok.Term)
		q.pos = append(q.pos, tok.Position)
		if !isASCII(string(tok.Term)) {
			q.ascii = false
		}
	}
	return q, nil
}

// textMatcher is the per-Eval state of match/match_phrase.
type textMatcher struct {
	q      *queryTerms
	phrase bool
	words  []string // reused for phrases
}

// matchASCII is the allocation-free path for ASCII text: asciiWords
// splits words as Bleve does; stop words need no filtering because an
// analyzed query never contains one.
func (m *textMatcher) matchASCII(text string) bool {
	if !m.phrase {
		found := false
		asciiWords(text, func(w string, _ int) bool {
			for _, t := range m.q.terms {
				if equalFoldASCII(w, t) {
					found = true
					return false
				}
			}
			return true
		})
		return found
	}
	m.words = m.words[:0]
	asciiWords(text, func(w string, _ int) bool {
		m.words = append(m.words, w)
		return true
	})
	for p, w := range m.words {
		if !equalFoldASCII(w, m.q.terms[0]) {
			continue
		}
		ok := true
		for k := 1; k < len(m.q.terms); k++ {
			at := p + m.q.pos[k] - m.q.pos[0]
			if at >= len(m.words) || !equalFoldASCII(m.words[at], m.q.terms[k]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (m *textMatcher) match(text string) bool {
	if len(m.q.terms) == 0 {
		return false
	}
	if m.q.ascii && isASCII(text) {
		return m.matchASCII(text)
	}
	toks := analyzer.Analyze([]byte(text))
	if !m.phrase {
		for _, tok := range toks {
			for _, t := range m.q.terms {
				if bytes.Equal(tok.Term, t) {
					return true
				}
			}
		}
		return false
	}
	// Phrase: some token position p holds term 0 and p + (pos_k - pos_0)
	// holds term k for every k.
	at := make(map[int][]byte, len(toks))
	for _, tok := range toks {
		at[tok.Position] = tok.Term
	}
	for _, tok := range toks {
		if !bytes.Equal(tok.Term, m.q.terms[0]) {
			continue
		}
		ok := true
		for k := 1; k < len(m.q.terms); k++ {
			if t, has := at[tok.Position+m.q.pos[k]-m.q.pos[0]]; !has || !bytes.Equal(t, m.q.terms[k]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func bindMatch(phrase bool) Binder {
	fn := "match"
	if phrase {
		fn = "match_phrase"
	}
	return func(args []Arg) (*Bound, error) {
		casts, err := coerceArgs(fn, args, pString, pString)
		if err != nil {
			return nil, err
		}
		if _, err := StandardAnalyzer(); err != nil {
			return nil, err
		}
		var fixed *queryTerms
		if s, ok := constString(args[1]); ok {
			if fixed, err = analyzeQuery(s); err != nil {
				return nil, err
			}
		}
		return &Bound{Type: types.Boolean, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			if args[0].DataType().ID() == arrow.NULL || args[1].DataType().ID() == arrow.NULL {
				return nullArray(types.Boolean, n), nil
			}
			text, query := args[0].(*array.String), args[1].(*array.String)
			m := &textMatcher{q: fixed, phrase: phrase}
			var ferr error
			out := boolResult(n, args, func(i int) (bool, bool) {
				if fixed == nil {
					q, err := analyzeQuery(query.Value(i))
					if err != nil {
						ferr = err
						return false, false
					}
					m.q = q
				}
				return m.match(text.Value(i)), true
			})
			if ferr != nil {
				out.Release()
				return nil, ferr
			}
			return out, nil
		}}, nil
	}
}
