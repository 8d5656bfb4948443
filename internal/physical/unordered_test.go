package physical

import (
	"testing"

	"sluice/internal/exec"
)

func TestUnorderedOnlyWhereOrderCannotShow(t *testing.T) {
	ts := newTables(t, false)
	for _, tc := range []struct {
		q         string
		streaming bool
		want      bool
	}{
		{"SELECT count(*) FROM users WHERE uid > 1", false, true},
		{"SELECT path, count(*), sum(uid), avg(uid), min(path) FROM logs GROUP BY path", false, true},
		// What reaches the output in file order: rows, a LIMIT, a join's probe side.
		{"SELECT uid FROM logs WHERE uid > 1", false, false},
		{"SELECT uid FROM logs LIMIT 2", false, false},
		{"SELECT path, collect_list(uid) FROM logs GROUP BY path", false, false},
		{"SELECT path, first(uid) FROM logs GROUP BY path", false, false},
		{"SELECT l.path, count(*) FROM logs l JOIN users u ON l.uid = u.uid GROUP BY l.path", false, false},
		// A stream's input: its operators live across epochs.
		{"SELECT path, count(*) FROM logs GROUP BY path", true, false},
	} {
		opts := Options{Streaming: tc.streaming, OutputMode: exec.Complete}
		p, err := Compile(optimized(t, ts, tc.q, tc.streaming), opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if got := firstScan(p.Root).Unordered; got != tc.want {
			t.Errorf("%s (streaming %v): unordered %v, want %v\n%s", tc.q, tc.streaming, got, tc.want, exec.Explain(p.Root))
		}
	}
}

func firstScan(st *exec.Stage) *exec.Scan {
	for st.Scan == nil {
		st = st.Inputs[0]
	}
	return st.Scan
}
