package sql

import "strings"

// numberSuffix reads Spark's type suffix written right after a number
// (no space between): 10L is a BIGINT, 2S a SMALLINT, 3Y a TINYINT, 0.5D
// and 1.5F DOUBLEs, 2.5BD a DECIMAL. Without this, "0.5D" read as the
// number 0.5 named D: a wrong type and column name, and no error.
func (p *parser) numberSuffix(num token, lit *Literal) (Expr, error) {
	t := p.tok()
	if t.kind != tkIdent || t.quoted || t.off != num.end {
		return lit, nil
	}
	suffix := strings.ToUpper(t.text)
	switch suffix {
	case "L", "S", "Y":
		if lit.Kind != LitInteger {
			return nil, errAt(num.pos, "invalid number %s: the %s suffix takes whole numbers", quoteFound(num.text+t.text), suffix)
		}
	case "D", "F":
		lit.Kind = LitFloat
	case "BD":
		if lit.Kind == LitFloat {
			return nil, errAt(num.pos, "invalid number %s: BD takes no exponent", quoteFound(num.text+t.text))
		}
		lit.Kind = LitDecimal
	default:
		return lit, nil
	}
	p.advance()
	lit.Suffix = suffix
	return lit, nil
}
