package job

import (
	"sync"

	"sluice/internal/connector"
)

// Run is one run of a stream in this process, as the Manager registers
// it: its status, and the channels that stop it and say it ended. The
// engine creates it (NewRun) once every option of the run is checked,
// registers it (Manager.Register), updates its status as epochs commit
// (Update), and calls Finish when the run returned.
type Run struct {
	mu     sync.Mutex
	status Status
	// retryStop, while the stream is retrying, is closed by STOP.
	retryStop chan struct{}
	stop      chan struct{}
	once      sync.Once
	done      chan struct{}
	// source, when set, adds its rows to the status.
	source connector.StreamDescriber
	// stopToken: the checkpoint's stop marker a worker found at its start
	// (a retry keeps it, so a STOP sent during the backoff still counts).
	stopToken string
	// stopTokenKnown: stopToken was read (a run watched, or a wait to
	// retry read it), so "" means there was no marker.
	stopTokenKnown bool
}

// NewRun is a run starting with status st; source, when not nil, adds
// what it tells of itself to every Snapshot.
func NewRun(st Status, source connector.StreamDescriber) *Run {
	return &Run{status: st, source: source, stop: make(chan struct{}), done: make(chan struct{})}
}

// RequestStop asks the run to stop at its next epoch boundary; calling
// it again does nothing.
func (r *Run) RequestStop() { r.once.Do(func() { close(r.stop) }) }

// Stopping is closed once a stop was requested (RequestStop): the
// channel the run's stream.Query watches.
func (r *Run) Stopping() <-chan struct{} { return r.stop }

// StopRequested reports whether RequestStop was called.
func (r *Run) StopRequested() bool { return isClosed(r.stop) }

// Done is closed once the run returned (Finish).
func (r *Run) Done() <-chan struct{} { return r.done }

// Finish says the run returned; call it once.
func (r *Run) Finish() { close(r.done) }

// Update changes the run's status under its lock and returns the status
// as it then is (without the source's rows).
func (r *Run) Update(f func(*Status)) Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(&r.status)
	return r.status
}

// WrapSource replaces the run's source describer with f of the current
// one (a keyed stream's reader adds its partition ownership).
func (r *Run) WrapSource(f func(connector.StreamDescriber) connector.StreamDescriber) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.source = f(r.source)
}

// Snapshot is the run's status now, with what its source tells of itself.
func (r *Run) Snapshot() Status {
	r.mu.Lock()
	st, src := r.status, r.source
	r.mu.Unlock()
	if src != nil {
		st.Source = src.StreamDescription()
		if q, ok := src.(connector.QueueReporter); ok {
			if qs, ok := q.QueueStatus(); ok {
				st.Queue = &qs
			}
		}
		if k, ok := src.(connector.KeyedReporter); ok {
			ks := k.KeyedStatus()
			st.Keyed = &ks
		}
	}
	return st
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
