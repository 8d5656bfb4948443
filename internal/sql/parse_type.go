package sql

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// dataType parses a SQL type into its Arrow type.
func (p *parser) dataType() (arrow.DataType, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.tok()
	if t.kind != tkIdent || t.quoted {
		return nil, p.errExpected("a type")
	}
	name := strings.ToUpper(t.text)
	switch name {
	case "BOOLEAN", "BOOL":
		p.advance()
		return types.Boolean, nil
	case "INT", "INTEGER", "TINYINT", "SMALLINT":
		p.advance()
		return types.Int, nil
	case "BIGINT", "LONG":
		p.advance()
		return types.BigInt, nil
	case "DOUBLE", "FLOAT", "REAL":
		p.advance()
		if name == "DOUBLE" {
			p.acceptKw("PRECISION")
		}
		return types.Double, nil
	case "STRING", "TEXT":
		p.advance()
		return types.String, nil
	case "VARCHAR", "CHAR":
		p.advance()
		if p.atOp("(") {
			// The length is accepted for compatibility and not enforced.
			if _, _, err := p.typeParams(1, 1); err != nil {
				return nil, err
			}
		}
		return types.String, nil
	case "BINARY":
		// Not a column type users declare, but types.SQLName prints it for
		// Parquet byte arrays, so SHOW CREATE TABLE output must read back.
		p.advance()
		return arrow.BinaryTypes.Binary, nil
	case "DATE":
		p.advance()
		return types.Date, nil
	case "TIMESTAMP":
		p.advance()
		return types.Timestamp, nil
	case "INTERVAL":
		p.advance()
		return types.Interval, nil
	case "DECIMAL", "NUMERIC", "DEC":
		p.advance()
		prec, scale := int64(10), int64(0)
		if p.atOp("(") {
			at := p.tok().pos
			ps, n, err := p.typeParams(1, 2)
			if err != nil {
				return nil, err
			}
			prec = ps[0]
			if n == 2 {
				scale = ps[1]
			}
			if prec < 1 || prec > 38 {
				return nil, errAt(at, "DECIMAL precision must be between 1 and 38, got %d", prec)
			}
			if scale > prec {
				return nil, errAt(at, "DECIMAL scale %d is larger than precision %d", scale, prec)
			}
		}
		return types.Decimal(int32(prec), int32(scale)), nil
	case "ARRAY":
		p.advance()
		if err := p.expectOp("<"); err != nil {
			return nil, err
		}
		elem, err := p.dataType()
		if err != nil {
			return nil, err
		}
		return types.Array(elem), p.closeAngle()
	case "MAP":
		p.advance()
		if err := p.expectOp("<"); err != nil {
			return nil, err
		}
		at := p.tok().pos
		key, err := p.dataType()
		if err != nil {
			return nil, err
		}
		if !arrow.TypeEqual(key, types.String) {
			return nil, errAt(at, "MAP keys must be STRING, not %s", types.SQLName(key))
		}
		if err := p.expectOp(","); err != nil {
			return nil, err
		}
		val, err := p.dataType()
		if err != nil {
			return nil, err
		}
		return types.Map(val), p.closeAngle()
	case "STRUCT":
		p.advance()
		return p.structType()
	}
	return nil, errAt(t.pos, "unknown type %s", p.found())
}

// typeParams reads (n[, m]) with between min and max integers.
func (p *parser) typeParams(min, max int) ([]int64, int, error) {
	p.advance() // (
	var out []int64
	for {
		t := p.tok()
		if t.kind != tkNumber || t.num != LitInteger {
			return nil, 0, p.errExpected("an integer")
		}
		v, err := strconv.ParseInt(t.text, 10, 32)
		if err != nil {
			return nil, 0, errAt(t.pos, "type parameter %s is too large", t.text)
		}
		p.advance()
		out = append(out, v)
		if len(out) == max || !p.acceptOp(",") {
			break
		}
	}
	if len(out) < min {
		return nil, 0, p.errExpected("an integer")
	}
	return out, len(out), p.expectOp(")")
}

// structType reads <name[:] type, ...> after STRUCT.
func (p *parser) structType() (arrow.DataType, error) {
	if p.acceptOp("<>") { // STRUCT<> lexes as the <> operator
		return types.Struct(), nil
	}
	if err := p.expectOp("<"); err != nil {
		return nil, err
	}
	var fields []arrow.Field
	if !p.atOp(">") {
		seen := map[string]bool{}
		for {
			at := p.tok().pos
			name, err := p.anyWord("field name")
			if err != nil {
				return nil, err
			}
			if seen[strings.ToLower(name)] {
				return nil, errAt(at, "duplicate field %s in STRUCT", quoteFound(name))
			}
			seen[strings.ToLower(name)] = true
			p.acceptOp(":")
			typ, err := p.dataType()
			if err != nil {
				return nil, err
			}
			fields = append(fields, arrow.Field{Name: name, Type: typ})
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if err := p.closeAngle(); err != nil {
		if p.tok().kind != tkError {
			return nil, p.errExpected("',' or '>'")
		}
		return nil, err
	}
	return types.Struct(fields...), nil
}

// closeAngle reads the '>' closing a nested type. ARRAY<ARRAY<INT>> lexes
// its end as the shift operator >> (or >>>), so that token is split into
// '>' and the rest for good: a re-parse after backtracking sees the same.
func (p *parser) closeAngle() error {
	t := p.tok()
	if isOp(t, ">>") || isOp(t, ">>>") {
		gt, rest := t, t
		gt.text, gt.end = ">", t.off+1
		rest.text = t.text[1:]
		rest.off++
		rest.pos.Col++
		toks := make([]token, 0, len(p.toks)+1)
		toks = append(append(append(toks, p.toks[:p.i]...), gt, rest), p.toks[p.i+1:]...)
		p.toks = toks
	}
	return p.expectOp(">")
}
