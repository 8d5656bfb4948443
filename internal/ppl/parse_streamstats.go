package ppl

import "sluice/internal/sql"

// streamStats reads streamstats [options] agg [as n], ... [by g, ...].
func (p *parser) streamStats(at sql.Pos) (*StreamStats, error) {
	ss := &StreamStats{}
	for {
		if t := p.tok(); (isKw(t, "reset_before") || isKw(t, "reset_after")) && isOp(p.peek(1), "=") {
			p.advance()
			p.advance()
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			if isKw(t, "reset_before") {
				ss.ResetBefore = e
			} else {
				ss.ResetAfter = e
			}
			continue
		}
		k, v, ok := p.option("current", "window", "global", "bucket_nullable")
		if !ok {
			break
		}
		var err error
		var b bool
		switch k {
		case "window":
			ss.Window, err = optionInt(v, k, 0)
		default:
			if b, err = boolValue(v); err != nil {
				return nil, err
			}
			switch k {
			case "current":
				ss.NoCurrent = !b
			case "global":
				ss.Local = !b
			case "bucket_nullable":
				ss.NoNullKeys = !b
			}
		}
		if err != nil {
			return nil, err
		}
	}
	st, err := p.stats(at)
	if err != nil {
		return nil, err
	}
	ss.Stats = *st
	return ss, nil
}
