package ppl

import (
	"sluice/internal/sql"
	"sluice/internal/types"
)

// fieldformat reads fieldformat f = ["prefix".]expr[."suffix"], ...: an
// eval whose value may be joined to quoted text by a dot (OpenSearch's
// string concatenation), so it becomes concat(prefix, expr, suffix).
func (p *parser) fieldFormat(at sql.Pos) (*Eval, error) {
	ev := &Eval{At: at}
	for {
		n, err := p.name("a field name")
		if err != nil {
			return nil, err
		}
		if err := p.expectOp("="); err != nil {
			return nil, err
		}
		var parts []sql.Expr
		if t := p.tok(); t.kind == tkString && isOp(p.peek(1), ".") {
			p.advance()
			p.advance()
			parts = append(parts, strLit(t.pos, t.text))
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		parts = append(parts, &sql.Cast{At: e.Pos(), X: e, Type: types.String})
		if p.atOp(".") && p.peek(1).kind == tkString {
			p.advance()
			t := p.advance()
			parts = append(parts, strLit(t.pos, t.text))
		}
		if len(parts) > 1 {
			e = &sql.Call{At: e.Pos(), Name: "concat", Args: parts}
		}
		ev.Assigns = append(ev.Assigns, Assign{At: n.At, Name: n.Name, Expr: e})
		if !p.acceptOp(",") {
			return ev, nil
		}
	}
}
