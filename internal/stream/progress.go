package stream

import (
	"fmt"
	"time"

	"sluice/internal/types"
)

// Progress describes one finished epoch.
type Progress struct {
	Name     string
	Epoch    int64
	Replayed bool // the epoch was planned by an earlier run and replayed
	Files    int
	Bytes    int64
	RowsIn   int64
	RowsOut  int64
	Duration time.Duration
	// InputRate is rows per second arriving since the previous epoch
	// started; ProcessRate rows per second while this epoch ran.
	InputRate, ProcessRate float64
	Watermark              int64 // microseconds; MinInt64 when none
	LateRows               int64
	LagFiles               int
	LagBytes               int64
	BadRows                int64
	Time                   time.Time
	// OutputRate is rows per second written since the previous epoch
	// started (as InputRate, for rows out).
	OutputRate float64
	// MaxEventTime is the newest event time committed so far
	// (microseconds); 0 for a stream without event time or before any event.
	MaxEventTime int64
	// CheckpointWrite is the time spent writing this epoch's checkpoint
	// files (offsets/N when planned now, state/N and commits/N).
	CheckpointWrite time.Duration
	// ReconciledFiles are the epoch's files that a reconcile listing
	// found, not a notification: the publisher lost their events.
	ReconciledFiles int
	// SinkRetries and DeadLetters are this epoch's retried sink requests
	// and dead-lettered rows, for sinks with connector.SinkStats.
	SinkRetries, DeadLetters int64
	// Phases is where the epoch's time went.
	Phases Phases
	// State is each stateful operator's id, rows and stored bytes after
	// the epoch (nil for a stateless stream).
	State []StateEntry
	// Totals are the stream's counts through this epoch since its first
	// epoch, across restarts (kept in the checkpoint's commits).
	Totals Totals
}

// Line is the one-line summary the CLI prints per epoch.
func (p Progress) Line() string {
	s := fmt.Sprintf("[%s] epoch %d: %s, %s, %s in, %s out in %s (%.0f rows/s)",
		p.Name, p.Epoch, Count(int64(p.Files), "file"), byteSize(p.Bytes), Count(p.RowsIn, "row"), Count(p.RowsOut, "row"),
		p.Duration.Round(time.Millisecond), p.ProcessRate)
	if p.Replayed {
		s += " [replayed]"
	}
	if p.Watermark != noWatermark {
		s += " watermark=" + types.FormatTimestamp(p.Watermark)
	}
	if p.LateRows > 0 {
		s += fmt.Sprintf(" late=%d", p.LateRows)
	}
	if p.BadRows > 0 {
		s += fmt.Sprintf(" bad=%d", p.BadRows)
	}
	if p.ReconciledFiles > 0 {
		s += fmt.Sprintf(" reconciled=%d", p.ReconciledFiles)
	}
	if p.LagFiles > 0 {
		s += fmt.Sprintf(" lag=%s/%s", Count(int64(p.LagFiles), "file"), byteSize(p.LagBytes))
	}
	return s
}

// Count is "1 row", "2 rows": messages use singular forms where they fit.
func Count(n int64, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
