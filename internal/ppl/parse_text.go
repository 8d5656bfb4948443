package ppl

import (
	"strconv"
	"strings"

	"sluice/internal/sql"
)

func (p *parser) parse(at sql.Pos, grok bool) (*ParseRegex, error) {
	f, err := p.primary()
	if err != nil {
		return nil, err
	}
	t := p.tok()
	if t.kind != tkString {
		return nil, p.errExpected("a quoted pattern")
	}
	p.advance()
	return &ParseRegex{At: at, Field: f, Pattern: t.text, PatAt: t.pos, Grok: grok}, nil
}

func (p *parser) patterns(at sql.Pos) (*Patterns, error) {
	pt := &Patterns{At: at, NewField: "patterns_field", MaxSamples: 10, VarCount: 5, FreqPct: 0.3}
	var patternAt *sql.Pos
	for !p.atEnd() {
		k, v, ok := p.option("new_field", "pattern", "method", "mode", "max_sample_count", "buffer_limit",
			"show_numbered_token", "variable_count_threshold", "frequency_threshold_percentage")
		if !ok {
			if pt.Field != nil && p.acceptKw("by") {
				var err error
				if pt.By, err = p.names("a field name"); err != nil {
					return nil, err
				}
				continue
			}
			if pt.Field != nil {
				return nil, p.errExpected("a patterns option, by or '|'")
			}
			f, err := p.primary()
			if err != nil {
				return nil, err
			}
			pt.Field = f
			continue
		}
		var err error
		switch k {
		case "new_field":
			pt.NewField = v.text
		case "pattern":
			if v.kind != tkString {
				return nil, syntaxErr(v.pos, "pattern: want a quoted regular expression")
			}
			pt.Pattern, patternAt = v.text, &v.pos
		case "method":
			switch strings.ToLower(v.text) {
			case "simple_pattern":
				pt.Brain = false
			case "brain":
				pt.Brain = true
			default:
				return nil, syntaxErr(v.pos, "patterns method %q: want simple_pattern or brain", v.text)
			}
		case "mode":
			switch strings.ToLower(v.text) {
			case "label":
				pt.Aggregation = false
			case "aggregation":
				pt.Aggregation = true
			default:
				return nil, syntaxErr(v.pos, "patterns mode %q: want label or aggregation", v.text)
			}
		case "max_sample_count":
			pt.MaxSamples, err = optionInt(v, k, 1)
		case "buffer_limit":
			_, err = optionInt(v, k, 50000)
		case "variable_count_threshold":
			pt.VarCount, err = optionInt(v, k, 1)
		case "frequency_threshold_percentage":
			if v.kind != tkNumber {
				return nil, syntaxErr(v.pos, "%s: want a number between 0.0 and 1.0", k)
			}
			pt.FreqPct, err = strconv.ParseFloat(v.text, 64)
			if err != nil || pt.FreqPct < 0 || pt.FreqPct > 1 {
				return nil, syntaxErr(v.pos, "%s: want a number between 0.0 and 1.0", k)
			}
		case "show_numbered_token":
			b, err := boolValue(v)
			if err != nil {
				return nil, err
			}
			if b {
				return nil, syntaxErr(v.pos, "patterns show_numbered_token=true is not supported")
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if pt.Field == nil {
		return nil, p.errExpected("a field name")
	}
	if pt.Brain && patternAt != nil {
		return nil, syntaxErr(*patternAt, "pattern= belongs to method=simple_pattern, not brain")
	}
	return pt, nil
}

// optionInt is an option's whole-number value, at least min.
func optionInt(v token, key string, min int64) (int64, error) {
	n, err := strconv.ParseInt(v.text, 10, 64)
	if v.kind != tkNumber || err != nil {
		return 0, syntaxErr(v.pos, "%s: want a whole number", key)
	}
	if n < min {
		return 0, syntaxErr(v.pos, "%s must be at least %d", key, min)
	}
	return n, nil
}

func (p *parser) fillNull(at sql.Pos) (*FillNull, error) {
	f := &FillNull{At: at}
	switch {
	case p.acceptKw("with"):
		e, err := p.additive()
		if err != nil {
			return nil, err
		}
		f.With = e
		if p.acceptKw("in") {
			if f.Fields, err = p.names("a field name"); err != nil {
				return nil, err
			}
		}
	case p.acceptKw("using"):
		for {
			n, err := p.name("a field name")
			if err != nil {
				return nil, err
			}
			if err := p.expectOp("="); err != nil {
				return nil, err
			}
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			f.Using = append(f.Using, Assign{At: n.At, Name: n.Name, Expr: e})
			if !p.acceptOp(",") {
				break
			}
		}
	case p.atKw("value") && isOp(p.peek(1), "="):
		p.advance()
		p.advance()
		e, err := p.primary()
		if err != nil {
			return nil, err
		}
		f.With = e
		for !p.atEnd() {
			n, err := p.name("a field name")
			if err != nil {
				return nil, err
			}
			f.Fields = append(f.Fields, n)
			p.acceptOp(",")
		}
	default:
		return nil, p.errExpected("with, using or value=")
	}
	return f, nil
}

// rex reads rex [mode=extract|sed] field=f 'pattern' [max_match=n]; the
// options may come in any order.
func (p *parser) rex(at sql.Pos) (*Rex, error) {
	r := &Rex{At: at, MaxMatch: 1}
	hasField := false
	for !p.atEnd() {
		if t := p.tok(); t.kind == tkString {
			if r.PatAt.Line != 0 {
				return nil, p.errExpected("'|' or end of query")
			}
			r.Pattern, r.PatAt = t.text, t.pos
			p.advance()
			continue
		}
		k, v, ok := p.option("mode", "field", "max_match", "offset_field")
		if !ok {
			return nil, p.errExpected("field=, mode=, max_match= or a quoted pattern")
		}
		var err error
		switch k {
		case "mode":
			switch strings.ToLower(v.text) {
			case "extract":
				r.Sed = false
			case "sed":
				r.Sed = true
			default:
				return nil, syntaxErr(v.pos, "rex mode %q: want extract or sed", v.text)
			}
		case "field":
			if v.kind != tkIdent {
				return nil, syntaxErr(v.pos, "field: want a field name")
			}
			r.Field, hasField = Name{At: v.pos, Name: v.text}, true
		case "max_match":
			r.MaxMatch, err = optionInt(v, k, 0)
		case "offset_field":
			if v.kind != tkIdent && v.kind != tkString {
				return nil, syntaxErr(v.pos, "offset_field: want a field name")
			}
			r.OffsetField = v.text
		}
		if err != nil {
			return nil, err
		}
	}
	if !hasField {
		return nil, syntaxErr(at, "rex needs field=<field>")
	}
	if r.PatAt.Line == 0 {
		return nil, p.errExpected("a quoted pattern")
	}
	return r, nil
}
