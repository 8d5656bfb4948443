package ppl

import (
	"encoding/json"
	"strconv"
	"strings"

	"sluice/internal/sql"
)

// Foreach is foreach [mode=m] [fieldstr=..] [matchstr=..] [itemstr=..]
// [iterstr=..] target ... [ eval template = expr, ... ]: the eval run
// once per matching field (multifield) or per element of an array
// (multivalue, auto_collections). Body is the eval's text, placeholders
// and all, parsed again per iteration.
type Foreach struct {
	At      sql.Pos
	Mode    string
	Targets []Name
	// Holders are the placeholder names: FIELD, MATCHSTR, ITEM, ITER or
	// their renamings.
	Field, Match, Item, Iter string
	Body                     string
	BodyAt                   sql.Pos
	// JSON is a json_array target's elements, read at plan time.
	JSON []sql.Expr
}

func (c *Foreach) pos() sql.Pos { return c.At }

func (p *parser) foreach(at sql.Pos) (*Foreach, error) {
	c := &Foreach{At: at, Mode: "multifield", Field: "FIELD", Match: "MATCHSTR", Item: "ITEM", Iter: "ITER"}
	for {
		k, v, ok := p.option("mode", "fieldstr", "matchstr", "itemstr", "iterstr")
		if !ok {
			break
		}
		if v.kind != tkIdent && v.kind != tkString {
			return nil, syntaxErr(v.pos, "foreach %s: want a name", k)
		}
		switch k {
		case "mode":
			c.Mode = strings.ToLower(v.text)
			switch c.Mode {
			case "multifield", "multivalue", "auto_collections", "json_array":
			default:
				return nil, syntaxErr(v.pos, "foreach mode=%s: want multifield, multivalue, json_array or auto_collections", v.text)
			}
		case "fieldstr":
			c.Field = v.text
		case "matchstr":
			c.Match = v.text
		case "itemstr":
			c.Item = v.text
		case "iterstr":
			c.Iter = v.text
		}
	}
	for !p.atOp("[") {
		if t := p.tok(); t.kind == tkString {
			if c.Mode != "json_array" && c.Mode != "auto_collections" {
				return nil, syntaxErr(t.pos, "foreach over a JSON array string needs mode=json_array")
			}
			els, err := jsonArrayLiteral(t)
			if err != nil {
				return nil, err
			}
			p.advance()
			c.Mode, c.JSON = "json_array", els
			c.Targets = append(c.Targets, Name{At: t.pos, Name: t.text})
			continue
		}
		n, err := p.wildName("a field name or pattern")
		if err != nil {
			return nil, err
		}
		c.Targets = append(c.Targets, n)
		p.acceptOp(",")
	}
	p.advance()
	if !p.acceptKw("eval") {
		return nil, p.errExpected("eval inside foreach's [ ]")
	}
	from := p.i
	depth := 0
	for {
		t := p.tok()
		if t.kind == tkEOF || t.kind == tkError {
			return nil, p.errExpected("']' closing foreach's eval")
		}
		if isOp(t, "[") {
			depth++
		} else if isOp(t, "]") {
			if depth == 0 {
				break
			}
			depth--
		}
		p.advance()
	}
	if p.i == from {
		return nil, p.errExpected("an assignment")
	}
	c.Body, c.BodyAt = p.text(from), p.toks[from].pos
	p.advance()
	if len(c.Targets) == 0 {
		return nil, syntaxErr(at, "foreach needs a target field")
	}
	return c, nil
}

// jsonArrayLiteral reads a JSON array string's elements as literals: all
// numbers (DOUBLE, as OpenSearch infers them) or all strings.
func jsonArrayLiteral(t token) ([]sql.Expr, error) {
	var vals []any
	if err := json.Unmarshal([]byte(t.text), &vals); err != nil {
		return nil, syntaxErr(t.pos, "foreach: %q is no JSON array", t.text)
	}
	var out []sql.Expr
	nums, strs := 0, 0
	for _, v := range vals {
		switch x := v.(type) {
		case float64:
			nums++
			out = append(out, &sql.Literal{At: t.pos, Kind: sql.LitFloat, Value: strconv.FormatFloat(x, 'e', -1, 64)})
		case string:
			strs++
			out = append(out, &sql.Literal{At: t.pos, Kind: sql.LitString, Value: x})
		default:
			return nil, syntaxErr(t.pos, "foreach: the JSON array's elements must be numbers or strings")
		}
	}
	if nums > 0 && strs > 0 {
		return nil, syntaxErr(t.pos, "foreach: a JSON array mixing numbers and strings is not supported")
	}
	return out, nil
}
