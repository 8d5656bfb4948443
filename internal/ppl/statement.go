package ppl

import "sluice/internal/sql"

// Statement checks a PPL query's syntax and wraps it as the SQL statement
// PPL '<text>': a *sql.SelectStmt whose query body is a *sql.PPL, which
// the engine translates when it runs it. Its Text() is that SQL, so a
// remote server parses it back to the same statement. describe t [| ...]
// is such a query too, over t's column metadata (translate_describe.go).
func Statement(text string) (sql.Statement, error) {
	at := sql.Pos{Line: 1, Col: 1}
	if _, err := Parse(text); err != nil {
		return nil, err
	}
	st := &sql.SelectStmt{Query: &sql.Query{At: at, Body: &sql.PPL{At: at, Text: text, TextAt: at}}}
	st.At, st.Src = at, "PPL "+sql.QuoteString(text)
	return st, nil
}
