package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// Window computes window functions over partitions of its input: the
// input's columns, then one column per function. All functions of one
// node share PARTITION BY and ORDER BY (the binder chains one node per
// distinct pair); each has its own frame. Rows come out sorted by the
// partition keys, then the order keys.
type Window struct {
	Input       Node
	PartitionBy []expr.Expr
	OrderBy     []SortKey
	Funcs       []*expr.WindowFunc
	Frames      []expr.WindowFrame // per function; used by those that read frames
	Names       []string           // per function
}

// Schema is the input's columns then the functions'.
func (w *Window) Schema() *arrow.Schema {
	fs := append([]arrow.Field{}, w.Input.Schema().Fields()...)
	for i, f := range w.Funcs {
		fs = append(fs, arrow.Field{Name: w.Names[i], Type: f.Type(), Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// Children is the input.
func (w *Window) Children() []Node { return []Node{w.Input} }

// WithChildren replaces the input.
func (w *Window) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(w, children, 1); err != nil {
		return nil, err
	}
	c := *w
	c.Input = children[0]
	return &c, nil
}

func (w *Window) String() string {
	return fmt.Sprintf("Window partition=%s order=%s funcs=[%s]", exprList(w.PartitionBy), keyList(w.OrderBy), WindowFuncsString(w.Funcs, w.Frames))
}

// WindowFuncsString prints each function with its frame when it reads one.
func WindowFuncsString(fs []*expr.WindowFunc, frames []expr.WindowFrame) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
		if f.UsesFrame() {
			parts[i] += " " + frames[i].String()
		}
	}
	return strings.Join(parts, ", ")
}

// pruneWindow keeps the needed input columns and whatever the window's
// keys and arguments read; every function column stays.
func pruneWindow(w *Window, need map[int]bool) (Node, map[int]int, error) {
	nin := w.Input.Schema().NumFields()
	cn := map[int]bool{}
	for i := range need {
		if i < nin {
			cn[i] = true
		}
	}
	for _, e := range w.PartitionBy {
		addCols(cn, e)
	}
	for _, k := range w.OrderBy {
		addCols(cn, k.Expr)
	}
	for _, f := range w.Funcs {
		for _, a := range f.Args {
			addCols(cn, a)
		}
	}
	child, cm, err := prune(w.Input, cn)
	if err != nil {
		return nil, nil, err
	}
	c := *w
	c.Input = child
	c.PartitionBy = remapAll(w.PartitionBy, cm)
	c.OrderBy = make([]SortKey, len(w.OrderBy))
	for i, k := range w.OrderBy {
		c.OrderBy[i] = k
		c.OrderBy[i].Expr = expr.Remap(k.Expr, cm)
	}
	c.Funcs = make([]*expr.WindowFunc, len(w.Funcs))
	for i, f := range w.Funcs {
		c.Funcs[i] = f.Remap(cm)
	}
	m := copyMap(cm)
	base := child.Schema().NumFields()
	for j := range w.Funcs {
		m[nin+j] = base + j
	}
	return &c, m, nil
}
