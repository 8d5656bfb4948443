package sql

import "strconv"

// tableSample reads TABLESAMPLE (...) [REPEATABLE (seed)] if it is next,
// returning nil otherwise.
func (p *parser) tableSample() (*TableSample, error) {
	if !p.atKw("TABLESAMPLE") || !isOp(p.peek(1), "(") {
		return nil, nil
	}
	s := &TableSample{At: p.advance().pos}
	p.advance()
	if p.atKw("BUCKET") {
		p.advance()
		var err error
		if s.Bucket, err = p.sampleInt("bucket number"); err != nil {
			return nil, err
		}
		if err := p.expectKw("OUT"); err != nil {
			return nil, err
		}
		if err := p.expectKw("OF"); err != nil {
			return nil, err
		}
		if s.OutOf, err = p.sampleInt("bucket count"); err != nil {
			return nil, err
		}
		if p.atKw("ON") {
			return nil, errAt(p.tok().pos, "TABLESAMPLE (BUCKET ... ON ...) is not supported")
		}
		s.Kind = SampleBucket
	} else {
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		s.Value = v
		switch {
		case p.acceptKw("PERCENT"):
			s.Kind = SamplePercent
		case p.acceptKw("ROWS"):
			s.Kind = SampleRows
		default:
			return nil, p.errExpected("PERCENT or ROWS")
		}
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	if p.atKw("REPEATABLE") && isOp(p.peek(1), "(") {
		p.advance()
		p.advance()
		seed, err := p.sampleInt("seed")
		if err != nil {
			return nil, err
		}
		s.Seed = &seed
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// sampleInt reads an unsigned integer literal of TABLESAMPLE.
func (p *parser) sampleInt(what string) (int64, error) {
	t := p.tok()
	n, err := strconv.ParseInt(t.text, 10, 64)
	if t.kind != tkNumber || err != nil {
		return 0, p.errExpected(what)
	}
	p.advance()
	return n, nil
}
