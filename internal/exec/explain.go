package exec

import (
	"fmt"
	"strings"

	"sluice/internal/connector"
)

// Explain prints the physical tree, one operator per line, the consumer
// above its input, indented two spaces per level:
//
//	Limit 10
//	  Sort [count DESC]
//	    HashAggregate keys=[status] aggs=[count(*)]
//	      Scan json files=3 columns=[status]
//
// A stage with several inputs prints a Union line above them.
func Explain(root *Stage) string {
	return ExplainNoted(root, nil)
}

// ExplainNoted is Explain with note(op), when not "", after each
// operator's line: a stream's EXPLAIN names the stateful operators'
// state ids there.
func ExplainNoted(root *Stage, note func(Operator) string) string {
	var b strings.Builder
	x := explainer{b: &b, note: note}
	x.stage(root, 0)
	return strings.TrimRight(b.String(), "\n")
}

// ExplainProfiled is the tree of a plan that ran under p (EXPLAIN
// ANALYZE): each operator and scan with its rows and own time.
func ExplainProfiled(root *Stage, p *Profile) string {
	var b strings.Builder
	x := explainer{b: &b,
		note: func(op Operator) string {
			if s, ok := p.Op(op); ok {
				return s.Note()
			}
			return ""
		},
		scanNote: func(sc *Scan) string {
			if s, ok := p.Scan(sc); ok {
				return s.Note()
			}
			return ""
		},
	}
	x.stage(root, 0)
	return strings.TrimRight(b.String(), "\n")
}

type explainer struct {
	b        *strings.Builder
	note     func(Operator) string
	scanNote func(*Scan) string
}

func (x explainer) op(depth int, op Operator) {
	s := op.String()
	if x.note != nil {
		if n := x.note(op); n != "" {
			s += " " + n
		}
	}
	line(x.b, depth, s)
}

// sideInputs is an operator with inputs outside its stage, such as a
// hash join's build side, printed as extra children after its main input.
type sideInputs interface {
	SideInputs() []*Stage
}

func (x explainer) stage(st *Stage, depth int) {
	if st == nil {
		return
	}
	type side struct {
		depth int
		st    *Stage
	}
	var sides []side
	for i := len(st.Ops) - 1; i >= 0; i-- {
		x.op(depth, st.Ops[i])
		if si, ok := st.Ops[i].(sideInputs); ok {
			for _, s := range si.SideInputs() {
				sides = append(sides, side{depth + 1, s})
			}
		}
		depth++
	}
	// The deepest operator's side inputs belong to its subtree, which
	// ends before the side inputs of the operators above it.
	defer func() {
		for i := len(sides) - 1; i >= 0; i-- {
			x.stage(sides[i].st, sides[i].depth)
		}
	}()
	n := len(st.Inputs)
	if st.Scan != nil {
		n++
	}
	if n > 1 {
		line(x.b, depth, "Union")
		depth++
	}
	if st.Scan != nil {
		x.scan(st.Scan, depth)
	}
	for _, in := range st.Inputs {
		x.stage(in, depth)
	}
}

func (x explainer) scan(sc *Scan, depth int) {
	b := x.b
	if sc.Local != nil {
		if ops, err := sc.Local(); err == nil {
			for i := len(ops) - 1; i >= 0; i-- {
				x.op(depth, ops[i])
				depth++
			}
		}
	}
	desc := ""
	if d, ok := sc.Source.(connector.Describer); ok {
		desc = d.Describe()
	} else if sc.Source != nil {
		desc = fmt.Sprintf("%T", sc.Source)
	}
	s := "Scan " + desc
	if sc.Parallelism > 1 {
		s += fmt.Sprintf(" parallelism=%d", sc.Parallelism)
	}
	if x.scanNote != nil {
		if n := x.scanNote(sc); n != "" {
			s += " " + n
		}
	}
	line(b, depth, strings.TrimSpace(s))
}

func line(b *strings.Builder, depth int, s string) {
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString(s)
	b.WriteByte('\n')
}
