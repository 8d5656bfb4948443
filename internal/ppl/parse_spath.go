package ppl

import (
	"strings"

	"sluice/internal/sql"
)

// spath reads spath input=f [output=o] [path=]p, options in any order; a
// bare path is the tokens written together (list{0}, a.b, items{}.id)
// or a quoted one ("['a.b c']").
func (p *parser) spath(at sql.Pos) (*Spath, error) {
	s := &Spath{At: at}
	for !p.atEnd() {
		t := p.tok()
		if isOp(p.peek(1), "=") && !t.quoted && (isKw(t, "input") || isKw(t, "output") || isKw(t, "path")) {
			key := strings.ToLower(p.advance().text)
			p.advance()
			switch key {
			case "input":
				n, err := p.name("a field name")
				if err != nil {
					return nil, err
				}
				s.Input = n
			case "output":
				n, err := p.name("a field name")
				if err != nil {
					return nil, err
				}
				s.Output = n.Name
			default:
				s.Path = p.spathPath()
			}
			continue
		}
		if s.Path != "" {
			return nil, p.errExpected("input=, output= or '|'")
		}
		s.Path = p.spathPath()
	}
	if s.Input.Name == "" {
		return nil, syntaxErr(at, "spath needs input=<field>")
	}
	if s.Output == "" {
		s.Output = s.Path
		if s.Path == "" {
			// Auto-extract mode replaces the input with its map.
			s.Output = s.Input.Name
		}
	}
	return s, nil
}

func (p *parser) spathPath() string {
	t := p.advance()
	if t.kind == tkString || t.quoted {
		return t.text
	}
	var b strings.Builder
	b.WriteString(p.src[t.off:t.end])
	end := t.end
	for {
		n := p.tok()
		if n.off != end || n.kind == tkEOF || n.kind == tkError || isOp(n, "|") || n.kind == tkString {
			return b.String()
		}
		p.advance()
		b.WriteString(p.src[n.off:n.end])
		end = n.end
	}
}
