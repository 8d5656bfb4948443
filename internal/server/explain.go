package server

import (
	"net/http"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/engine"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// handleExplain answers POST /_plugins/_sql/_explain with the engine's
// EXPLAIN of the query in the plugin's shapes (explainBody). The plugin
// shows OpenSearch DSL inside its plan; Sluice has no DSL to show, so
// each node carries its line of Sluice's plan.
func (s *Server) handleExplain(w http.ResponseWriter, r *http.Request) {
	opts, err := explainOptionsOf(r)
	if err != nil {
		writeError(w, err)
		return
	}
	req, err := readRequest(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if req.Query == "" {
		writeError(w, badRequest("the request has no query"))
		return
	}
	q := strings.TrimSuffix(req.Query, ";")
	if q, err = bindRequest(endpoint{parse: sql.ParseOne}, q, req.Parameters); err != nil {
		writeError(w, err)
		return
	}
	if !strings.HasPrefix(strings.ToUpper(q), "EXPLAIN") {
		q = "EXPLAIN " + q // so EXPLAIN's modes (ANALYZE, ...) may lead
	}
	if _, err := withFilter(endpoint{parse: sql.ParseOne}, req.Filter); err != nil {
		writeError(w, err)
		return
	}
	// The plan is the one the query would run: with the request's filter
	// on the explained statement.
	explain := func(text string) (sql.Statement, error) {
		st, err := sql.ParseOne(text)
		ex, ok := st.(*sql.Explain)
		if err != nil || !ok {
			return st, err
		}
		inner, err := withFilter(endpoint{parse: func(string) (sql.Statement, error) { return ex.Stmt, nil }}, req.Filter)
		if err != nil {
			return nil, err
		}
		if ex.Stmt, err = inner(text); err != nil {
			return nil, err
		}
		return ex, nil
	}
	res, err := s.executeWith(s.requestSession(r, req), q, explain)
	if err != nil {
		writeError(w, err)
		return
	}
	writePlan(w, opts, res)
}

// writePlan writes an EXPLAIN result as explainBody, in the mode and
// format opts ask for.
func writePlan(w http.ResponseWriter, opts explainOptions, res *engine.Result) {
	var lines []string
	if res.Schema != nil {
		newResult(res).each(0, 1<<62, func(b arrow.RecordBatch, i int) {
			for c := 0; c < int(b.NumCols()); c++ {
				if t, ok := types.Text(b.Column(c), i); ok {
					lines = append(lines, strings.Split(strings.TrimRight(t, "\n"), "\n")...)
				}
			}
		})
	} else {
		lines = strings.Split(res.Message, "\n")
	}
	opts.write(w, explainOf(lines))
}

// explainBody is an explain answer in both of the plugin's shapes: the
// v2 engine's operator tree (root, each node's name, description and
// children) and the Calcite engine's plan texts (calcite.logical,
// calcite.physical). plan keeps Sluice's lines as they were.
//
//	{"root": {"name": "Project", "description": {"plan": "Project [id]"}, "children": [...]},
//	 "calcite": {"logical": "Project [id]\n  Scan t ...\n", "physical": "..."},
//	 "plan": ["== Logical Plan ==", ...]}
type explainBody struct {
	Root    *explainNode      `json:"root"`
	Calcite map[string]string `json:"calcite"`
	Plan    []string          `json:"plan"`
}

// explainNode is one operator: its name (the plan line's first word),
// its line of Sluice's plan, and its inputs.
type explainNode struct {
	Name        string            `json:"name"`
	Description map[string]string `json:"description"`
	Children    []*explainNode    `json:"children"`
}

// explainOf reads Sluice's EXPLAIN text: sections headed "== Logical
// Plan ==" and "== Physical Plan ==" (or one unheaded plan), each a tree
// indented two spaces a level. The tree is the physical plan, the one
// that runs.
func explainOf(lines []string) explainBody {
	sections := map[string][]string{}
	var order []string
	cur := "physical"
	for _, l := range lines {
		if h := strings.TrimSpace(l); strings.HasPrefix(h, "== ") && strings.HasSuffix(h, " ==") {
			cur = strings.TrimSuffix(strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "== "), " ==")), " plan")
			continue
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		if _, ok := sections[cur]; !ok {
			order = append(order, cur)
		}
		sections[cur] = append(sections[cur], l)
	}
	body := explainBody{Calcite: map[string]string{}, Plan: lines}
	for _, k := range order {
		body.Calcite[k] = strings.Join(sections[k], "\n") + "\n"
	}
	tree := sections["physical"]
	if tree == nil && len(order) > 0 {
		tree = sections[order[len(order)-1]]
	}
	body.Root = planTree(tree)
	return body
}

// planTree builds the operator tree of indented plan lines; several
// top-level lines hang under one "Plan" node.
func planTree(lines []string) *explainNode {
	top := &explainNode{Name: "Plan", Description: map[string]string{}, Children: []*explainNode{}}
	type level struct {
		depth int
		node  *explainNode
	}
	stack := []level{{depth: -1, node: top}}
	for _, l := range lines {
		text := strings.TrimLeft(l, " ")
		depth := (len(l) - len(text)) / 2
		name, _, _ := strings.Cut(text, " ")
		n := &explainNode{Name: name, Description: map[string]string{"plan": text}, Children: []*explainNode{}}
		for len(stack) > 1 && stack[len(stack)-1].depth >= depth {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1].node
		parent.Children = append(parent.Children, n)
		stack = append(stack, level{depth: depth, node: n})
	}
	if len(top.Children) == 1 {
		return top.Children[0]
	}
	return top
}
