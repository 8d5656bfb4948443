package ppl

import "sluice/internal/sql"

// Statement checks a PPL query's syntax and wraps it as the SQL statement
// PPL '<text>': a *sql.SelectStmt whose query body is a *sql.PPL, which
// the engine translates when it runs it. Its Text() is that SQL, so a
// remote server parses it back to the same statement. describe t is
// DESCRIBE t.
func Statement(text string) (sql.Statement, error) {
	at := sql.Pos{Line: 1, Col: 1}
	if d, ok, err := describeStmt(text); ok || err != nil {
		return d, err
	}
	if _, err := Parse(text); err != nil {
		return nil, err
	}
	st := &sql.SelectStmt{Query: &sql.Query{At: at, Body: &sql.PPL{At: at, Text: text, TextAt: at}}}
	st.At, st.Src = at, "PPL "+sql.QuoteString(text)
	return st, nil
}

// describeStmt reads describe <table>: the table's columns.
func describeStmt(text string) (sql.Statement, bool, error) {
	p := &parser{src: text, toks: tokenize(text, sql.Pos{Line: 1, Col: 1}, nil)}
	if !p.atKw("describe") {
		return nil, false, nil
	}
	at := p.advance().pos
	name, _, err := p.tableName()
	if err != nil {
		return nil, true, err
	}
	if p.tok().kind != tkEOF {
		return nil, true, p.errExpected("end of query")
	}
	st := &sql.DescribeTable{Name: name}
	st.At, st.Src = at, "DESCRIBE "+sql.QuoteName(name)
	return st, true, nil
}
