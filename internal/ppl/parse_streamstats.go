package ppl

import "sluice/internal/sql"

// streamStats reads streamstats [options] agg [as n], ... [by g, ...].
func (p *parser) streamStats(at sql.Pos) (*StreamStats, error) {
	ss := &StreamStats{}
	for {
		k, v, ok := p.option("current", "window", "global", "bucket_nullable", "reset_before", "reset_after")
		if !ok {
			break
		}
		var err error
		var b bool
		switch k {
		case "window":
			ss.Window, err = optionInt(v, k, 0)
		case "reset_before", "reset_after":
			return nil, syntaxErr(v.pos, "streamstats %s is not supported", k)
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
