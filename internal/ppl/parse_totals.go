package ppl

import "sluice/internal/sql"

// addTotals reads addtotals [fields] [row=b] [col=b] [label=s]
// [labelfield=f] [fieldname=f]; addcoltotals is col=true row=false
// without row= and fieldname=.
func (p *parser) addTotals(at sql.Pos, colOnly bool) (*AddTotals, error) {
	a := &AddTotals{At: at, Row: !colOnly, Col: colOnly, Label: "Total", FieldName: "Total"}
	keys := []string{"label", "labelfield", "row", "col", "fieldname"}
	if colOnly {
		keys = keys[:2]
	}
	for !p.atEnd() {
		k, v, ok := p.option(keys...)
		if !ok {
			if len(a.Fields) > 0 && !p.acceptOp(",") && p.tok().kind != tkIdent {
				return nil, p.errExpected("',', an option or '|'")
			}
			n, err := p.name("a field name")
			if err != nil {
				return nil, err
			}
			a.Fields = append(a.Fields, n)
			continue
		}
		var err error
		switch k {
		case "label", "labelfield", "fieldname":
			if v.kind != tkString && v.kind != tkIdent {
				return nil, syntaxErr(v.pos, "%s: want a name", k)
			}
			switch k {
			case "label":
				a.Label = v.text
			case "labelfield":
				a.LabelField = v.text
			default:
				a.FieldName = v.text
			}
		case "row":
			a.Row, err = boolValue(v)
		case "col":
			a.Col, err = boolValue(v)
		}
		if err != nil {
			return nil, err
		}
	}
	return a, nil
}
