package sql

// PPL is a query written in PPL, OpenSearch's Piped Processing Language:
// PPL 'source=t | where a > 1'. It stands wherever a whole query may (a
// SELECT statement, INSERT ... PPL '...', INSERT STREAM, CREATE
// MATERIALIZED VIEW ... AS PPL '...'); the engine translates it to SQL
// (internal/ppl) before binding, so the binder never sees one.
type PPL struct {
	At   Pos
	Text string
	// TextAt is where the PPL text starts: the position just past the
	// opening quote, so an error inside it can point into the statement.
	TextAt Pos
	// Raw is the literal as written between its quotes ('' and
	// backslash escapes not undone), to map positions in Text back to
	// the statement; "" when Text is not from a literal.
	Raw string
}

func (p *PPL) Pos() Pos { return p.At }
func (*PPL) queryBody() {}

// String prints PPL 'text'.
func (p *PPL) String() string { return "PPL " + QuoteString(p.Text) }

var _ QueryBody = (*PPL)(nil)

// startsPPL reports whether the parser is at PPL '...'.
func (p *parser) startsPPL() bool {
	return p.atKw("PPL") && p.peek(1).kind == tkString
}

// ppl parses PPL '...' into a query whose body is a *PPL.
func (p *parser) ppl() *PPL {
	at := p.advance().pos
	s := p.advance()
	return &PPL{At: at, Text: s.text, TextAt: Pos{Line: s.pos.Line, Col: s.pos.Col + 1}, Raw: p.src[s.off+1 : s.end-1]}
}
