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
	var b strings.Builder
	explainStage(&b, root, 0)
	return strings.TrimRight(b.String(), "\n")
}

// sideInputs is an operator with inputs outside its stage, such as a
// hash join's build side, printed as extra children after its main input.
type sideInputs interface {
	SideInputs() []*Stage
}

func explainStage(b *strings.Builder, st *Stage, depth int) {
	if st == nil {
		return
	}
	type side struct {
		depth int
		st    *Stage
	}
	var sides []side
	for i := len(st.Ops) - 1; i >= 0; i-- {
		line(b, depth, st.Ops[i].String())
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
			explainStage(b, sides[i].st, sides[i].depth)
		}
	}()
	n := len(st.Inputs)
	if st.Scan != nil {
		n++
	}
	if n > 1 {
		line(b, depth, "Union")
		depth++
	}
	if st.Scan != nil {
		explainScan(b, st.Scan, depth)
	}
	for _, in := range st.Inputs {
		explainStage(b, in, depth)
	}
}

func explainScan(b *strings.Builder, sc *Scan, depth int) {
	if sc.Local != nil {
		if ops, err := sc.Local(); err == nil {
			for i := len(ops) - 1; i >= 0; i-- {
				line(b, depth, ops[i].String())
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
	line(b, depth, strings.TrimSpace(s))
}

func line(b *strings.Builder, depth int, s string) {
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString(s)
	b.WriteByte('\n')
}
