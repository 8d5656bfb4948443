package ppl

import (
	"strings"

	"sluice/internal/sql"
)

// Union is union [maxout=n] dataset ... (Multi: multisearch subsearch
// ...): the input's rows (mid-pipeline) then each dataset's, fields
// matched by name. A dataset is a [ subsearch ] or a table name.
type Union struct {
	At     sql.Pos
	MaxOut int64
	Sets   []*Pipeline
	Multi  bool
}

func (c *Union) pos() sql.Pos { return c.At }

// union reads union's or multisearch's datasets up to the next '|'.
func (p *parser) union(at sql.Pos, multi bool) (*Union, error) {
	u := &Union{At: at, Multi: multi}
	what := "union"
	if multi {
		what = "multisearch"
	}
	for !p.atEnd() {
		if k, v, ok := p.option("maxout"); ok && !multi {
			n, err := optionInt(v, "union "+k, 0)
			if err != nil {
				return nil, err
			}
			u.MaxOut = n
			continue
		}
		switch {
		case p.acceptOp(","):
		case p.acceptOp("["):
			if err := p.enter(); err != nil {
				return nil, err
			}
			sub, err := p.pipeline(true)
			p.leave()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp("]"); err != nil {
				return nil, err
			}
			u.Sets = append(u.Sets, sub)
		case !multi && p.tok().kind == tkIdent:
			t := p.advance()
			if strings.ContainsAny(t.text, "*?") {
				return nil, syntaxErr(t.pos, "union: index patterns (%s) are not supported; name a table or a [ subsearch ]", t.text)
			}
			u.Sets = append(u.Sets, &Pipeline{At: t.pos, Source: &Source{At: t.pos, Table: t.text}})
		default:
			if multi {
				return nil, p.errExpected("'[' and a subsearch")
			}
			return nil, p.errExpected("a table name, '[' and a subsearch, or maxout=")
		}
	}
	if len(u.Sets) == 0 {
		return nil, syntaxErr(at, "%s needs datasets", what)
	}
	return u, nil
}
