package ppl

import (
	"strings"

	"sluice/internal/sql"
)

// sort reads sort [n] [+|-]key [asc|desc], ...
func (p *parser) sort(at sql.Pos) (*Sort, error) {
	s := &Sort{At: at}
	if t := p.tok(); t.kind == tkNumber && p.peek(1).kind != tkEOF && !isOp(p.peek(1), "|") && !isOp(p.peek(1), ",") {
		n, err := optionInt(t, "sort count", 0)
		if err != nil {
			return nil, err
		}
		p.advance()
		s.Count = n
	}
	for {
		k := SortKey{}
		if p.acceptOp("-") {
			k.Desc = true
		} else {
			p.acceptOp("+")
		}
		e, err := p.primary()
		if err != nil {
			return nil, err
		}
		// str(f), num(f), auto(f): sort f as text, as a number, as is.
		if c, ok := e.(*sql.Call); ok && len(c.Args) == 1 && !c.Star {
			switch strings.ToLower(c.Name) {
			case "str":
				e = &sql.Cast{At: c.At, X: c.Args[0], Type: mustType("STRING")}
			case "num":
				e = &sql.Cast{At: c.At, X: c.Args[0], Type: mustType("DOUBLE")}
			case "auto":
				e = c.Args[0]
			case "ip":
				return nil, syntaxErr(c.At, "sort ip(...) is not supported (str, num and auto are)")
			}
		}
		k.Expr = e
		switch {
		case p.acceptKw("desc"), p.acceptKw("d"):
			k.Desc = true
		case p.acceptKw("asc"), p.acceptKw("a"):
		}
		s.Keys = append(s.Keys, k)
		if !p.acceptOp(",") {
			return s, nil
		}
	}
}
