package physical

import "sluice/internal/exec"

// markUnordered lets a scan hand its batches over as they come when the
// stage's first operator gives the in-order result from any order (see
// exec.OrderInsensitive). Everything else keeps split order: a LIMIT,
// a join's probe side or a sink sees rows in the order the files hold
// them, which tests pin and a file sink's names depend on. A stream's
// input keeps split order too: its operators live across epochs.
func markUnordered(p *Plan) {
	var mark func(st *exec.Stage)
	mark = func(st *exec.Stage) {
		if st == nil {
			return
		}
		if sc := st.Scan; sc != nil && sc != p.StreamScan && len(st.Ops) > 0 {
			switch {
			case exec.TakesAnyOrder(st.Ops[0]):
				sc.Unordered = true
			case exec.MergesInOrder(st.Ops[0]):
				// Not any order, but split-order merges of the workers'
				// partials: an aggregate over floats, a percentile.
				sc.MergeInOrder = true
			}
		}
		for _, in := range st.Inputs {
			mark(in)
		}
	}
	mark(p.Root)
	for _, l := range p.Lookups {
		mark(l.Build)
	}
}
