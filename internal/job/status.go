package job

import (
	"fmt"
	"time"

	"sluice/internal/connector"
	"sluice/internal/stream"
)

// States of a stream run (Status.State) and of a submitted query
// (QueryInfo.State). A stream not running in this process reads "stopped"
// or what its checkpoint recorded of its last run.
const (
	StateWaiting   = "waiting"
	StateRunning   = "running"
	StateSuccess   = "success"
	StateFailed    = "failed"
	StateCancelled = "cancelled"
	// StateRetrying is a background stream whose last run failed with an
	// error that may pass (a sink or store that did not answer): it runs
	// again from its checkpoint at Status.NextAttempt.
	StateRetrying = "retrying"
)

// Desired states of a stream, as the catalog records what it was asked
// to be in: a process with a Background runner resumes the running ones.
const (
	DesiredRunning = "running"
	DesiredStopped = "stopped"
)

// Status is what SHOW STREAMS and DESCRIBE STREAM report of a stream.
type Status struct {
	Name       string
	State      string
	Trigger    string
	Checkpoint string
	Sink       string
	Started    time.Time
	Last       stream.Progress
	Epochs     int64
	RowsIn     int64
	RowsOut    int64
	BadRows    int64
	// LateRows is the total dropped as late since the stream started here.
	LateRows int64
	// Reconciled is the files reconcile listings found since the
	// stream's first epoch (its checkpoint's totals).
	Reconciled int64 `json:",omitempty"`
	LastError  string
	// Attempts counts the retries of a background stream since it
	// started here; NextAttempt is when the next runs, while State is
	// retrying (see retry.go).
	Attempts    int
	NextAttempt time.Time
	// QueueUnreachable counts the runs that failed because the stream's
	// queue could not be reached, since it started here (across retries).
	QueueUnreachable int64 `json:",omitempty"`
	// Source is what the stream's source tells of itself (a notification
	// queue's counters and backlog), key/value rows for DESCRIBE STREAM.
	Source [][2]string `json:",omitempty"`
	// Worker is "slot i of n" for a stream shared by several processes.
	Worker string `json:",omitempty"`
	// Slot and Slots are Worker in numbers; Slots is 0 for a stream this
	// process runs alone.
	Slot  int `json:",omitempty"`
	Slots int `json:",omitempty"`
	// Queue is the Source's queue in numbers, nil without one.
	Queue *connector.QueueStatus `json:",omitempty"`
	// Keyed is the partition ownership of a keyed (windowed) stream shared
	// by workers, nil otherwise.
	Keyed *connector.KeyedStatus `json:",omitempty"`
}

// carryRetry moves what a retrying stream's status accumulated onto the
// run that replaces it, so its counters and attempts span its retries.
func carryRetry(old, next *Status) {
	next.Started = old.Started
	next.Epochs += old.Epochs
	next.RowsIn += old.RowsIn
	next.RowsOut += old.RowsOut
	next.BadRows += old.BadRows
	next.LateRows += old.LateRows
	next.Reconciled = max(next.Reconciled, old.Reconciled)
	next.Last = old.Last
	next.Attempts = old.Attempts
	next.QueueUnreachable = old.QueueUnreachable
	next.LastError = old.LastError
}

// Stopped is the one-line summary of a run that ended: "stream s stopped
// after 1 epoch: 10 rows in, 3 rows out", the message the statement, the
// async API and the console show alike.
func (s Status) Stopped(name string) string {
	return fmt.Sprintf("stream %s stopped after %s: %s in, %s out", name,
		stream.Count(s.Epochs, "epoch"), stream.Count(s.RowsIn, "row"), stream.Count(s.RowsOut, "row"))
}
