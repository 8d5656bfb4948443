package ppl

import (
	"strconv"
	"strings"
	"time"

	"sluice/internal/sql"
)

// SearchExpr is a search command's expression, translated against the
// source's schema (translate_search.go) because free text and field=value
// depend on which fields are strings.
type SearchExpr interface{ searchPos() sql.Pos }

// SearchBool is a AND b, a OR b (Or set), or NOT a (R nil, Not set).
type SearchBool struct {
	At   sql.Pos
	Or   bool
	Not  bool
	L, R SearchExpr
}

// SearchText is a free-text term or "quoted phrase", matched in every
// string field.
type SearchText struct {
	At   sql.Pos
	Text string
}

// SearchCompare is field op value, op one of = != < <= > >=.
type SearchCompare struct {
	At    sql.Pos
	Field Name
	Op    string
	Value SearchValue
}

// SearchIn is field IN (v1, v2, ...).
type SearchIn struct {
	At     sql.Pos
	Field  Name
	Values []SearchValue
}

// SearchTime is earliest=modifier (Latest false) or latest=modifier on
// the implicit @timestamp field.
type SearchTime struct {
	At       sql.Pos
	Latest   bool
	Modifier string
}

// SearchValue is a value as written: quoted (a phrase, no number) or a
// bare word, which may be a number.
type SearchValue struct {
	At     sql.Pos
	Text   string
	Quoted bool
}

func (e *SearchBool) searchPos() sql.Pos    { return e.At }
func (e *SearchText) searchPos() sql.Pos    { return e.At }
func (e *SearchCompare) searchPos() sql.Pos { return e.At }
func (e *SearchIn) searchPos() sql.Pos      { return e.At }
func (e *SearchTime) searchPos() sql.Pos    { return e.At }

// searchStops are the tokens that end a bare search word.
var searchStops = map[string]bool{"|": true, "(": true, ")": true, "[": true, "]": true, ",": true,
	"=": true, "==": true, "!=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true}

func isSearchStop(t token) bool {
	return t.kind == tkEOF || t.kind == tkError || t.kind == tkString || t.kind == tkOp && searchStops[t.text]
}

// searchSource reads the first stage of a query: [search] terms and one
// source=t [as a] in any order, terms joined by blanks being ANDed. OR
// binds tighter than AND, NOT tighter than both, as OpenSearch documents
// (a OR b AND c is (a OR b) AND c).
func (p *parser) searchSource() (*Source, error) {
	at := p.tok().pos
	explicit := p.acceptKw("search")
	s := &Source{At: at}
	if !explicit && !p.atKw("source") && !p.atKw("index") {
		if p.atKw("describe") {
			p.advance()
			name, _, err := p.tableName()
			if err != nil {
				return nil, err
			}
			if !p.atEnd() {
				return nil, p.errExpected("'|'")
			}
			s.Table, s.Describe = name, true
			return s, nil
		}
		return nil, p.errExpected("source=<table>")
	}
	e, err := p.searchAnd(s)
	if err != nil {
		return nil, err
	}
	if !p.atEnd() {
		return nil, p.errExpected("a search term, source=<table> or '|'")
	}
	if s.Table == "" {
		return nil, syntaxErr(at, "search needs source=<table>")
	}
	s.Search = e
	return s, nil
}

// searchAnd reads terms up to the end of the search; a source=t among
// them is taken into s and is no term.
func (p *parser) searchAnd(s *Source) (SearchExpr, error) {
	var out SearchExpr
	for !p.atEnd() && !p.atOp(")") {
		if out != nil && p.atKw("and") {
			p.advance()
		}
		if s != nil && (p.atKw("source") || p.atKw("index")) && isOp(p.peek(1), "=") {
			if err := p.searchTable(s); err != nil {
				return nil, err
			}
			continue
		}
		e, err := p.searchOr()
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = e
		} else {
			out = &SearchBool{At: e.searchPos(), L: out, R: e}
		}
	}
	return out, nil
}

func (p *parser) searchTable(s *Source) error {
	t := p.advance()
	if s.Table != "" {
		return syntaxErr(t.pos, "search takes one source=<table>")
	}
	p.advance()
	name, _, err := p.tableName()
	if err != nil {
		return err
	}
	// source=a, b: several indices, read as one (an index pattern).
	for p.atOp(",") && p.peek(1).kind == tkIdent {
		p.advance()
		more, _, err := p.tableName()
		if err != nil {
			return err
		}
		name += "," + more
	}
	s.Table = name
	if p.acceptKw("as") {
		a, err := p.name("an alias")
		if err != nil {
			return err
		}
		s.Alias = a.Name
	}
	return nil
}

func (p *parser) searchOr() (SearchExpr, error) {
	l, err := p.searchNot()
	if err != nil {
		return nil, err
	}
	for p.atKw("or") {
		at := p.advance().pos
		r, err := p.searchNot()
		if err != nil {
			return nil, err
		}
		l = &SearchBool{At: at, Or: true, L: l, R: r}
	}
	return l, nil
}

func (p *parser) searchNot() (SearchExpr, error) {
	if p.atKw("not") {
		at := p.advance().pos
		x, err := p.searchNot()
		if err != nil {
			return nil, err
		}
		return &SearchBool{At: at, Not: true, L: x}, nil
	}
	return p.searchTerm()
}

func (p *parser) searchTerm() (SearchExpr, error) {
	t := p.tok()
	if isOp(t, "(") {
		p.advance()
		e, err := p.searchAnd(nil)
		if err != nil {
			return nil, err
		}
		if e == nil {
			return nil, p.errExpected("a search term")
		}
		return e, p.expectOp(")")
	}
	if t.kind == tkString {
		p.advance()
		return &SearchText{At: t.pos, Text: t.text}, nil
	}
	if isSearchStop(t) || p.atEnd() {
		return nil, p.errExpected("a search term")
	}
	first := p.i
	word := p.searchWord()
	n := p.tok()
	switch {
	case n.kind == tkOp && searchStops[n.text] && n.text != "(" && n.text != ")" && n.text != "," && n.text != "|" && n.text != "[" && n.text != "]":
		op := n.text
		p.advance()
		switch op {
		case "==":
			op = "="
		case "<>":
			op = "!="
		}
		lower := strings.ToLower(word)
		if op == "=" && !p.toks[first].quoted && p.i-first == 2 && (lower == "earliest" || lower == "latest") {
			m, err := p.searchModifier()
			if err != nil {
				return nil, err
			}
			return &SearchTime{At: t.pos, Latest: lower == "latest", Modifier: m}, nil
		}
		v, err := p.searchValue()
		if err != nil {
			return nil, err
		}
		return &SearchCompare{At: t.pos, Field: Name{At: t.pos, Name: word}, Op: op, Value: v}, nil
	case isKw(n, "in") && isOp(p.peek(1), "("):
		p.advance()
		p.advance()
		in := &SearchIn{At: t.pos, Field: Name{At: t.pos, Name: word}}
		for {
			v, err := p.searchValue()
			if err != nil {
				return nil, err
			}
			in.Values = append(in.Values, v)
			if !p.acceptOp(",") {
				break
			}
		}
		return in, p.expectOp(")")
	}
	if p.toks[first].quoted {
		return nil, syntaxErr(t.pos, "search: expected =, !=, <, <=, >, >= or IN after field %s", word)
	}
	return &SearchText{At: t.pos, Text: word}, nil
}

// searchWord joins the tokens written together from here (user-123,
// log_*, ERR?R, a.b.c) into one bare word; a back-quoted name is one
// token on its own.
func (p *parser) searchWord() string {
	t := p.advance()
	if t.quoted {
		return t.text
	}
	var b strings.Builder
	b.WriteString(p.src[t.off:t.end])
	end := t.end
	for {
		n := p.tok()
		if n.off != end || isSearchStop(n) || n.quoted {
			return b.String()
		}
		p.advance()
		b.WriteString(p.src[n.off:n.end])
		end = n.end
	}
}

func (p *parser) searchValue() (SearchValue, error) {
	t := p.tok()
	if t.kind == tkString {
		p.advance()
		return SearchValue{At: t.pos, Text: t.text, Quoted: true}, nil
	}
	if isSearchStop(t) || p.atEnd() {
		return SearchValue{}, p.errExpected("a search value")
	}
	return SearchValue{At: t.pos, Text: p.searchWord()}, nil
}

// searchModifier reads a time modifier: 'quoted', now(), a Unix time in
// seconds (made an absolute time here, as it names one) or a bare word.
func (p *parser) searchModifier() (string, error) {
	v, err := p.searchValue()
	if err != nil {
		return "", err
	}
	if !v.Quoted && strings.EqualFold(v.Text, "now") && p.atOp("(") && isOp(p.peek(1), ")") {
		p.advance()
		p.advance()
		return "now", nil
	}
	if f, err := strconv.ParseFloat(v.Text, 64); err == nil && !v.Quoted && !strings.ContainsAny(v.Text, "+-") {
		sec := int64(f)
		us := int64((f - float64(sec)) * 1e6)
		return time.Unix(sec, us*1000).UTC().Format("2006-01-02 15:04:05.999999"), nil
	}
	return v.Text, nil
}
