package stream

import "time"

// Phases is an epoch's wall time by phase, as Spark's durationMs and
// Flink's checkpoint breakdown show it: where an epoch's time goes tells
// a slow listing from a slow sink.
type Phases struct {
	// Listing is finding the new input and planning its splits
	// (Source.Latest and Plan, and BeforeEpoch's refresh).
	Listing time.Duration
	// Reading is the time the plan waited on its readers (decoding files).
	Reading time.Duration
	// Operators is the plan's operators' own time.
	Operators time.Duration
	// Sink is writing to the sink and flushing it.
	Sink time.Duration
	// Checkpoint is writing offsets/N, the state and commits/N.
	Checkpoint time.Duration
}

// PhasesJSON is Phases in a commit record, in microseconds. The commit's
// checkpoint phase leaves out the commit's own write (it is being timed);
// the progress the stream reports includes it.
type PhasesJSON struct {
	ListingUS    int64 `json:"listing_us"`
	ReadingUS    int64 `json:"reading_us"`
	OperatorsUS  int64 `json:"operators_us"`
	SinkUS       int64 `json:"sink_us"`
	CheckpointUS int64 `json:"checkpoint_us"`
}

// JSON is p in microseconds.
func (p Phases) JSON() *PhasesJSON {
	return &PhasesJSON{ListingUS: p.Listing.Microseconds(), ReadingUS: p.Reading.Microseconds(),
		OperatorsUS: p.Operators.Microseconds(), SinkUS: p.Sink.Microseconds(), CheckpointUS: p.Checkpoint.Microseconds()}
}

// Phases is j as durations; zero for nil (commits written before phases
// were kept).
func (j *PhasesJSON) Phases() Phases {
	if j == nil {
		return Phases{}
	}
	us := time.Microsecond
	return Phases{Listing: time.Duration(j.ListingUS) * us, Reading: time.Duration(j.ReadingUS) * us,
		Operators: time.Duration(j.OperatorsUS) * us, Sink: time.Duration(j.SinkUS) * us, Checkpoint: time.Duration(j.CheckpointUS) * us}
}
