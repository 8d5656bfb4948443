package streams

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/plan"
	"sluice/internal/sql"
)

// Explain is EXPLAIN INSERT STREAM: the stream's plan as it would
// run, planned and compiled as Run does but with nothing opened
// (no sink, checkpoint, lock or queue connection) and nothing recorded.
// Under the logical plan, the streaming plan is a tree: the stream and
// its trigger, the sink, the physical operators with each stateful one's
// state id, then the state ids with their fingerprints (what a restart
// checks against the checkpoint), the source's discovery and, with
// workers, where the keyed cut falls.
func (m *Streams) Explain(ctx context.Context, s *sql.InsertStream) (*Result, error) {
	name, spec, err := m.insertStreamSpec(s)
	if err != nil {
		return nil, err
	}
	ps, err := m.planStream(ctx, name, insertWrite(s), spec, true)
	if err != nil {
		return nil, err
	}
	return planResult(planLines(name, spec, ps)), nil
}

// planLines prints a planned stream (Explain, and a view's
// EXPLAIN CREATE MATERIALIZED VIEW through ExplainLines).
func planLines(name string, spec Spec, ps *plannedStream) []string {
	lines := []string{"== Logical Plan =="}
	lines = append(lines, strings.Split(strings.TrimRight(plan.Format(ps.logical), "\n"), "\n")...)
	lines = append(lines, "== Streaming Plan ==")
	mode := spec.Options["output_mode"]
	if mode == "" {
		mode = "append"
	}
	lines = append(lines, fmt.Sprintf("Stream %s trigger=%s output_mode=%s", name, ps.trig, mode))
	lines = append(lines, fmt.Sprintf("  Sink %s (USING %s)", ps.table.Spec.Name, ps.table.Spec.Using))
	ids := map[exec.Operator]string{}
	for _, op := range ps.sp.State {
		if o, ok := op.Op.(exec.Operator); ok {
			ids[o] = "[state " + op.ID + "]"
		}
	}
	tree := exec.ExplainNoted(ps.sp.Root, func(op exec.Operator) string { return ids[op] })
	for _, l := range strings.Split(tree, "\n") {
		lines = append(lines, "    "+l)
	}
	src := "Source " + ps.sp.StreamTable
	if d, ok := ps.sp.Source.(connector.DiscoveryDescriber); ok {
		src += " " + d.DiscoveryDescription()
	}
	lines = append(lines, src)
	if ps.sp.EventTime != nil {
		lines = append(lines, fmt.Sprintf("Event time: watermark = max event time - %s", microsText(ps.sp.EventDelay)))
	}
	if len(ps.sp.State) == 0 {
		lines = append(lines, "State: none (stateless)")
	} else {
		lines = append(lines, "State")
		for _, op := range ps.sp.State {
			lines = append(lines, fmt.Sprintf("  %s %s fingerprint=%s", op.ID, op.Description.Kind, op.Description.Fingerprint()))
		}
	}
	if workers, _ := workersOption(spec.Options); workers > 1 {
		switch {
		case ps.sp.Keyed != nil:
			parts := spec.Options["partitions"]
			if parts == "" {
				parts = fmt.Sprint(defaultPartitions)
			}
			lines = append(lines, fmt.Sprintf("Keyed cut: %d workers read and publish partials of %s by %s partitions; the partitions' owners merge them",
				workers, ps.sp.Keyed.Template, parts))
		case len(ps.sp.State) == 0:
			lines = append(lines, fmt.Sprintf("Workers: %d, sharing the files (stateless)", workers))
		default:
			lines = append(lines, fmt.Sprintf("Workers: %d; this plan has no keyed form, so it cannot be shared", workers))
		}
	}
	return lines
}

// ExplainLines plans stream name as Run would, opening and recording
// nothing, and returns EXPLAIN's lines (a view's EXPLAIN CREATE
// MATERIALIZED VIEW).
func (m *Streams) ExplainLines(ctx context.Context, name string, w Write, spec Spec) ([]string, error) {
	ps, err := m.planStream(ctx, name, w, spec, true)
	if err != nil {
		return nil, err
	}
	return planLines(name, spec, ps), nil
}

// microsText prints a delay in µs as an interval.
func microsText(us int64) string {
	unit := func(n int64, name string) string {
		if n == 1 {
			return "1 " + name
		}
		return fmt.Sprintf("%d %ss", n, name)
	}
	switch {
	case us != 0 && us%60_000_000 == 0:
		return unit(us/60_000_000, "minute")
	case us%1_000_000 == 0:
		return unit(us/1_000_000, "second")
	}
	return unit(us, "microsecond")
}

// planResult is an EXPLAIN's answer: one "plan" row per line.
func planResult(lines []string) *Result {
	rows := make([][]string, len(lines))
	for i, l := range lines {
		rows[i] = []string{l}
	}
	return stringRows([]string{"plan"}, rows)
}
