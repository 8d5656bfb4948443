package streams

import (
	"slices"
	"strings"

	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/plan"
	"sluice/internal/usererr"
)

// keyedSinkSpec is the sink spec a stream shared by workers writes
// through in update mode (docs/scale-out.md, part 2, "Document ids"):
// its owners write a group again at every epoch that changed it, from
// whichever process owns its partition, under a sink epoch id of that
// partition and epoch, so a sink that names documents by the epoch
// (OpenSearch, the local index) would keep every version. Such a sink
// (one with an `id` option) gets its `id` from the table, or else from
// the output columns that carry the GROUP BY keys (a window key by its
// start or end), as a materialized view does: one document per group,
// overwritten by each version, a replay or a takeover. Without either
// the stream is refused. A stream in one process (no `workers`) gets the
// same ids, as a materialized view does, when its output carries the
// keys; otherwise it keeps writing each version as a document. Other
// sinks are returned as they are.
func keyedSinkSpec(stream string, opts map[string]string, spec connector.TableSpec, n plan.Node) (connector.TableSpec, error) {
	if opts["output_mode"] != "update" {
		return spec, nil
	}
	w, err := workersOption(opts)
	if err != nil {
		return spec, nil
	}
	f, err := registry.Lookup(spec.Using)
	if err != nil || !slices.Contains(f.OptionKeys, "id") {
		return spec, nil
	}
	if strings.TrimSpace(spec.Options["id"]) != "" {
		return spec, nil
	}
	keys, found := plan.GroupKeyOutputs(n)
	if !found {
		return spec, nil // no aggregate: not a keyed stream (refused later)
	}
	if len(keys) == 0 && w <= 1 {
		// One process writes a group's versions under ids of its own
		// epochs: without the keys in the output it keeps every
		// version, as it always did (Spark's sinks without an id do).
		return spec, nil
	}
	if len(keys) == 0 {
		return spec, usererr.Errorf(usererr.Invalid, "stream %s: workers in update mode write each group again at every change, but table %s (USING %s) names documents by epoch "+
			"and the output does not carry every GROUP BY key: select each key (or a window's start), or set OPTIONS (id = '<columns>') on %s, so a group keeps one document",
			stream, spec.Name, spec.Using, spec.Name)
	}
	o := make(map[string]string, len(spec.Options)+1)
	for k, v := range spec.Options {
		o[k] = v
	}
	o["id"] = strings.Join(keys, ",")
	spec.Options = o
	return spec, nil
}

// idsNameGroups reports whether spec's id option names only output
// columns of n that carry GROUP BY keys (a view's ids, keyedSinkSpec's,
// or a table's own id over them): the sink then takes a NULL among them
// for the NULL group's value (connector.SinkOptions.GroupIDs), so that
// group keeps one document across epochs and REFRESHes.
func idsNameGroups(spec connector.TableSpec, n plan.Node) bool {
	id := strings.TrimSpace(spec.Options["id"])
	if id == "" {
		return false
	}
	keys, _ := plan.GroupKeyOutputs(n)
	if len(keys) == 0 {
		return false
	}
	for _, c := range strings.Split(id, ",") {
		c = strings.Trim(strings.TrimSpace(c), "`")
		if c != "" && !slices.ContainsFunc(keys, func(k string) bool { return strings.EqualFold(k, c) }) {
			return false
		}
	}
	return true
}
