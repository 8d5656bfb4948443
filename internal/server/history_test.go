package server

import (
	"math"
	"testing"
	"time"

	"sluice/internal/job"
	"sluice/internal/stream"
)

func status(name string, lagFiles int, watermark int64) map[string]job.Status {
	return map[string]job.Status{name: {Name: name, Last: stream.Progress{LagFiles: lagFiles, Watermark: watermark}}}
}

// TestHistoryRing: rates come from the rows committed between two
// samples, the ring keeps the newest samples of the window oldest first,
// the watermark delay is now minus the watermark, and a dropped stream
// is forgotten.
func TestHistoryRing(t *testing.T) {
	h := newHistory(20 * time.Minute) // 3 samples an hour
	if h.size != 3 {
		t.Fatalf("size %d, want 3", h.size)
	}
	t0 := time.Unix(1_800_000_000, 0)
	h.record(t0, status("a", 0, 0))
	h.observe(stream.Progress{Name: "a", RowsIn: 600, RowsOut: 300})
	h.observe(stream.Progress{Name: "A", RowsIn: 600, RowsOut: 300}) // names are case-insensitive
	wm := t0.Add(20*time.Minute - 90*time.Second).UnixMicro()
	h.record(t0.Add(20*time.Minute), status("a", 4, wm))
	got := h.series("A")
	if len(got) != 2 || !math.IsNaN(got[0].rowsIn) || got[1].rowsIn != 1 || got[1].rowsOut != 0.5 || got[1].lagFiles != 4 ||
		got[1].watermarkLagS != 90 || !math.IsNaN(got[0].watermarkLagS) {
		t.Fatalf("series: %+v", got)
	}
	for i := 2; i <= 4; i++ {
		h.record(t0.Add(time.Duration(i)*20*time.Minute), status("a", i, stream.NoWatermark))
	}
	got = h.series("a")
	if len(got) != 3 || got[0].lagFiles != 2 || got[2].lagFiles != 4 || got[2].rowsIn != 0 || !math.IsNaN(got[2].watermarkLagS) {
		t.Fatalf("after wrapping: %+v", got)
	}
	h.record(t0.Add(2*time.Hour), status("b", 0, 0))
	if h.series("a") != nil || len(h.series("b")) != 1 {
		t.Fatalf("a dropped stream is kept: %+v", h.series("a"))
	}
	if n := newHistory(time.Millisecond).size; n != 7200 {
		t.Errorf("a 1 ms interval keeps %d samples, want the cap 7200", n)
	}
}
