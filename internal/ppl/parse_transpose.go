package ppl

import (
	"sluice/internal/sql"
)

// maxTranspose is OpenSearch's bound on transpose's row count.
const maxTranspose = 10000

// transpose reads transpose [n] [column_name=s]; n is 5 by default.
func (p *parser) transpose(at sql.Pos) (*Transpose, error) {
	tr := &Transpose{At: at, N: 5, Column: "column"}
	for !p.atEnd() {
		if t := p.tok(); t.kind == tkNumber {
			n, err := p.integer("a number of rows")
			if err != nil {
				return nil, err
			}
			if n < 1 || n > maxTranspose {
				return nil, syntaxErr(t.pos, "transpose takes 1 to %d rows", maxTranspose)
			}
			tr.N = n
			continue
		}
		_, v, ok := p.option("column_name")
		if !ok {
			return nil, p.errExpected("a number of rows, column_name= or '|'")
		}
		if v.kind != tkString && v.kind != tkIdent {
			return nil, syntaxErr(v.pos, "transpose column_name= wants a name")
		}
		tr.Column = v.text
	}
	return tr, nil
}
