package server

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// explainOptions are an explain request's URL parameters, as the
// plugin's PPLQueryRequestFactory reads them: mode (standard, the
// default; simple; extended; cost) and format (json, the default; yaml).
// A mode given as format (format=simple, the SQL docs' form and the
// plugin's backward-compatible one) is the mode, answered as json.
type explainOptions struct {
	mode string
	yaml bool
	// plugin: a mode or format was asked for, so the answer is the
	// Calcite engine's shape alone ({"calcite": {...}}); without either,
	// the v2 tree and Sluice's lines come too (explainBody).
	plugin bool
	pretty bool
}

// Sluice's planner has no cost model nor generated code: cost is refused,
// and extended is standard, as the plugin's is for a plan with no code.
const (
	explainStandard = "standard"
	explainSimple   = "simple"
	explainExtended = "extended"
	explainCost     = "cost"
)

// explainOptionsOf reads r's mode and format; an unknown one is a 400
// with the plugin's words.
func explainOptionsOf(r *http.Request) (explainOptions, error) {
	q := r.URL.Query()
	o := explainOptions{mode: explainStandard, pretty: q.Has("pretty")}
	switch f := strings.ToLower(q.Get("format")); f {
	case "", "json":
	case "yaml":
		o.yaml = true
	case explainSimple, explainStandard, explainExtended, explainCost:
		o.mode = f
	case "json_tree":
		return o, badRequest("explain format json_tree: Sluice's plan is not a Calcite RelNode tree; use json or yaml")
	default:
		return o, badRequest("Failed to create executor due to unknown response format: " + f)
	}
	if q.Has("mode") {
		o.mode = strings.ToLower(q.Get("mode"))
	}
	switch o.mode {
	case explainSimple, explainStandard, explainExtended:
	case explainCost:
		return o, badRequest("explain mode cost: Sluice's planner keeps no cost estimates; use simple, standard or extended")
	default:
		return o, badRequest(fmt.Sprintf("explain mode %s: want simple, standard, extended or cost", o.mode))
	}
	o.plugin = q.Has("mode") || q.Has("format")
	return o, nil
}

// calcite is body's calcite texts for the mode: simple keeps only the
// logical plan, each line cut to its operator's name.
func (o explainOptions) calcite(body explainBody) map[string]string {
	if o.mode != explainSimple {
		return body.Calcite
	}
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(body.Calcite["logical"], "\n"), "\n") {
		text := strings.TrimLeft(l, " ")
		name, _, _ := strings.Cut(text, " ")
		b.WriteString(l[:len(l)-len(text)] + name + "\n")
	}
	return map[string]string{"logical": b.String()}
}

// write answers body in the asked shape and format.
func (o explainOptions) write(w http.ResponseWriter, body explainBody) {
	if !o.plugin {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		_ = writeJSON(w, body, o.pretty)
		return
	}
	calcite := o.calcite(body)
	if o.yaml {
		w.Header().Set("Content-Type", "application/yaml; charset=UTF-8")
		writeExplainYAML(w, calcite)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = writeJSON(w, map[string]map[string]string{"calcite": calcite}, o.pretty)
}

// writeExplainYAML writes {"calcite": texts} as the plugin's YamlFormatter
// does: keys sorted, each multi-line text a literal block.
func writeExplainYAML(w io.Writer, texts map[string]string) {
	var b strings.Builder
	b.WriteString("calcite:\n")
	for _, k := range slices.Sorted(maps.Keys(texts)) {
		b.WriteString("  " + k + ": |\n")
		for _, l := range strings.Split(strings.TrimRight(texts[k], "\n"), "\n") {
			b.WriteString("    " + l + "\n")
		}
	}
	_, _ = io.WriteString(w, b.String())
}
