package sql

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// maxDepth bounds nesting (parentheses, subqueries, nested types) so that
// hostile input gets an error instead of exhausting the stack.
const maxDepth = 1000

// maxBacktracks bounds how often the FROM clause may retry a
// parenthesized item with the other reading, keeping parsing linear on
// pathological input.
const maxBacktracks = 64

// parser is a recursive-descent parser over a token slice; expressions use
// precedence climbing (Pratt).
type parser struct {
	src        string
	toks       []token
	i          int // index of the current token
	depth      int
	backtracks int
	// lambdaParams are the parameters of the lambdas being parsed: a
	// reserved word may name one ((left, right) -> left < right, as in
	// Spark's array_sort example) and is then a column reference.
	lambdaParams []string
}

func newParser(text string) *parser {
	return &parser{src: text, toks: tokenize(text)}
}

func (p *parser) tok() token { return p.toks[p.i] }

// peek returns the token n places after the current one.
func (p *parser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tkEOF && t.kind != tkError {
		p.i++
	}
	return t
}

// prevEnd is the byte offset just past the last consumed token.
func (p *parser) prevEnd() int {
	if p.i == 0 {
		return 0
	}
	return p.toks[p.i-1].end
}

// isKw reports whether t is the unquoted keyword kw (upper case).
func isKw(t token, kw string) bool {
	return t.kind == tkIdent && !t.quoted && strings.EqualFold(t.text, kw)
}

func isOp(t token, op string) bool { return t.kind == tkOp && t.text == op }

func (p *parser) atKw(kw string) bool { return isKw(p.tok(), kw) }
func (p *parser) atOp(op string) bool { return isOp(p.tok(), op) }

// acceptKw consumes the keyword kw if it is next.
func (p *parser) acceptKw(kw string) bool {
	if p.atKw(kw) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) acceptOp(op string) bool {
	if p.atOp(op) {
		p.advance()
		return true
	}
	return false
}

// found describes the current token for an error message.
func (p *parser) found() string {
	t := p.tok()
	if t.kind == tkEOF {
		return "end of input"
	}
	if t.kind == tkString {
		// A string may be a credential in OPTIONS; do not echo it.
		return "a string literal"
	}
	return quoteFound(p.src[t.off:t.end])
}

// errExpected reports "expected X but found Y" at the current token, or the
// lexical error if the current token is one.
func (p *parser) errExpected(what string) error {
	t := p.tok()
	if t.kind == tkError {
		return errAt(t.pos, "%s", t.text)
	}
	return errAt(t.pos, "expected %s but found %s", what, p.found())
}

func (p *parser) expectKw(kw string) error {
	if !p.acceptKw(kw) {
		return p.errExpected(kw)
	}
	return nil
}

func (p *parser) expectOp(op string) error {
	if !p.acceptOp(op) {
		return p.errExpected("'" + op + "'")
	}
	return nil
}

// enter counts one level of nesting; leave must follow.
func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return errAt(p.tok().pos, "statement nested too deeply (more than %d levels)", maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// isIdentTok reports whether t can be a name: a quoted identifier or an
// unquoted word that is not reserved.
func isIdentTok(t token) bool {
	return t.kind == tkIdent && (t.quoted || !reserved[strings.ToUpper(t.text)])
}

// ident reads a name (what describes it for an error message).
func (p *parser) ident(what string) (string, Pos, error) {
	t := p.tok()
	if !isIdentTok(t) {
		return "", t.pos, p.errExpected(what)
	}
	p.advance()
	return t.text, t.pos, nil
}

// anyWord reads any word, reserved or not: used after '.' and in places
// such as struct field names where no keyword can follow.
func (p *parser) anyWord(what string) (string, error) {
	t := p.tok()
	if t.kind != tkIdent {
		return "", p.errExpected(what)
	}
	p.advance()
	return t.text, nil
}

func (p *parser) identList(what string) ([]string, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	var out []string
	for {
		name, _, err := p.ident(what)
		if err != nil {
			return nil, err
		}
		out = append(out, name)
		if !p.acceptOp(",") {
			break
		}
	}
	return out, p.expectOp(")")
}

// Parse reads a script: statements separated by ';'. Empty statements are
// skipped.
func Parse(text string) ([]Statement, error) {
	p := newParser(text)
	var out []Statement
	for {
		for p.acceptOp(";") {
		}
		if p.tok().kind == tkEOF {
			return out, nil
		}
		s, err := p.statement()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		if p.tok().kind != tkEOF && !p.atOp(";") {
			return nil, p.errExpected("';' or end of input")
		}
	}
}

// ParseOne reads exactly one statement; a trailing ';' is allowed.
func ParseOne(text string) (Statement, error) { return ParseOneAt(text, Pos{Line: 1, Col: 1}) }

// ParseOneAt is ParseOne for a statement that starts at position at of a
// script: the positions of its nodes and errors are the script's, so an
// error names the script's line and column, not the statement's.
func ParseOneAt(text string, at Pos) (Statement, error) {
	p := &parser{src: text, toks: tokenizeAt(text, at)}
	for p.acceptOp(";") {
	}
	if p.tok().kind == tkEOF {
		return nil, p.errExpected("a statement")
	}
	s, err := p.statement()
	if err != nil {
		return nil, err
	}
	for p.acceptOp(";") {
	}
	if p.tok().kind != tkEOF {
		return nil, p.errExpected("end of input")
	}
	return s, nil
}

// ParseExpr reads one expression, such as the text of a WATERMARK or a
// filter given on the command line.
func ParseExpr(text string) (Expr, error) {
	p := newParser(text)
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.tok().kind != tkEOF {
		return nil, p.errExpected("end of expression")
	}
	return e, nil
}

// ParseType reads a SQL type such as STRUCT<a: INT, b: ARRAY<STRING>> into
// its Arrow type.
func ParseType(text string) (arrow.DataType, error) {
	p := newParser(text)
	t, err := p.dataType()
	if err != nil {
		return nil, err
	}
	if p.tok().kind != tkEOF {
		return nil, p.errExpected("end of type")
	}
	return t, nil
}
