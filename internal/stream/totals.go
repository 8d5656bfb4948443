package stream

import (
	"context"
	"errors"
	"io/fs"

	"sluice/internal/storage"
)

// Totals are a stream's counts since its first epoch, carried from
// commit to commit so that they survive restarts (DESCRIBE STREAM's
// rows_in, rows_out, bad_rows, late_rows_dropped and reconciled_files).
type Totals struct {
	RowsIn  int64 `json:"rows_in"`
	RowsOut int64 `json:"rows_out"`
	Late    int64 `json:"late_rows"`
	BadRows int64 `json:"bad_rows,omitempty"`
	// Reconciled counts files found by reconcile listings.
	Reconciled int64 `json:"reconciled_files,omitempty"`
}

func (t *Totals) add(p Progress) {
	t.RowsIn += p.RowsIn
	t.RowsOut += p.RowsOut
	t.Late += p.LateRows
	t.BadRows += p.BadRows
	t.Reconciled += int64(p.ReconciledFiles)
}

// RunStatus is how the last run of a stream ended, as the process that
// ran it reported it: its state (success, failed, cancelled) and error.
type RunStatus struct {
	State string `json:"state"`
	Error string `json:"error,omitempty"`
	Time  int64  `json:"time"` // µs
}

// WriteRunStatus records how the stream's run ended, for processes that
// describe it later.
func (c *Checkpoint) WriteRunStatus(ctx context.Context, s RunStatus) error {
	return c.writeJSON(ctx, c.key("status"), s, false)
}

// ReadRunStatus reads the last run's status; nil when none was recorded.
func (c *Checkpoint) ReadRunStatus(ctx context.Context) (*RunStatus, error) {
	var s RunStatus
	err := c.readJSON(ctx, c.key("status"), &s)
	if errors.Is(err, storage.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &s, nil
}
