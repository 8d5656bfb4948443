package server

import (
	"time"

	"sluice/internal/stream"
)

// epochsKept is how many of a stream's last epochs the console charts
// by phase, as Spark's UI charts its last batches.
const epochsKept = 120

// epochPoint is one committed epoch in a stream's history: when it
// ended, its time by phase and its rates.
type epochPoint struct {
	at          time.Time
	epoch       int64
	duration    time.Duration
	phases      stream.Phases
	inputRate   float64 // rows/s arriving since the epoch before started
	processRate float64 // rows/s while it ran
}

// epochRing holds the newest epochsKept points, oldest first.
type epochRing struct{ points []epochPoint }

func (r *epochRing) add(p epochPoint) {
	if len(r.points) >= epochsKept {
		r.points = append(r.points[:0], r.points[len(r.points)-epochsKept+1:]...)
	}
	r.points = append(r.points, p)
}

func pointOf(p stream.Progress) epochPoint {
	return epochPoint{at: p.Time, epoch: p.Epoch, duration: p.Duration, phases: p.Phases, inputRate: p.InputRate, processRate: p.ProcessRate}
}

// EpochsJSON is a stream's last epochs in columns, oldest first: the
// epoch's duration split into its phases (listing, reading, operators,
// sink, checkpoint; milliseconds) and its input against processing rate
// (rows per second; a null input rate is a run's first epoch, with no
// epoch before it to count from).
type EpochsJSON struct {
	Time        []float64  `json:"time"`
	Epoch       []int64    `json:"epoch"`
	DurationMS  []float64  `json:"duration_ms"`
	ListingMS   []float64  `json:"listing_ms"`
	ReadingMS   []float64  `json:"reading_ms"`
	OperatorsMS []float64  `json:"operators_ms"`
	SinkMS      []float64  `json:"sink_ms"`
	CheckpointM []float64  `json:"checkpoint_ms"`
	InputRate   []*float64 `json:"input_rows_per_second"`
	ProcessRate []float64  `json:"processed_rows_per_second"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func epochsJSON(points []epochPoint) EpochsJSON {
	n := len(points)
	out := EpochsJSON{Time: make([]float64, 0, n), Epoch: make([]int64, 0, n), DurationMS: make([]float64, 0, n),
		ListingMS: make([]float64, 0, n), ReadingMS: make([]float64, 0, n), OperatorsMS: make([]float64, 0, n),
		SinkMS: make([]float64, 0, n), CheckpointM: make([]float64, 0, n), InputRate: make([]*float64, 0, n), ProcessRate: make([]float64, 0, n)}
	for i, p := range points {
		out.Time = append(out.Time, float64(p.at.UnixMilli())/1000)
		out.Epoch = append(out.Epoch, p.epoch)
		out.DurationMS = append(out.DurationMS, ms(p.duration))
		out.ListingMS = append(out.ListingMS, ms(p.phases.Listing))
		out.ReadingMS = append(out.ReadingMS, ms(p.phases.Reading))
		out.OperatorsMS = append(out.OperatorsMS, ms(p.phases.Operators))
		out.SinkMS = append(out.SinkMS, ms(p.phases.Sink))
		out.CheckpointM = append(out.CheckpointM, ms(p.phases.Checkpoint))
		var in *float64
		if p.inputRate > 0 || (i > 0 && points[i-1].epoch == p.epoch-1) {
			v := p.inputRate
			in = &v
		}
		out.InputRate = append(out.InputRate, in)
		out.ProcessRate = append(out.ProcessRate, p.processRate)
	}
	return out
}
