package exec

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Profile collects what EXPLAIN ANALYZE prints: for each operator the
// rows it sent on and the time spent in it, its own (without the
// operators it feeds, which are timed as themselves); for each scan the
// rows it delivered and the time the driver waited for them (reading,
// decoding, operators local to the readers, merging their partials).
// Run records into the Profile its context carries (WithProfile), build
// sides and other stages run under that context included; without one,
// recording costs a nil check per message.
type Profile struct {
	mu    sync.Mutex
	ops   map[Operator]*OpStats
	scans map[*Scan]*OpStats
}

// OpStats is one operator's or scan's share of a run.
type OpStats struct {
	Rows    int64         // rows sent on
	Batches int64         // non-empty batches sent on
	Time    time.Duration // own time
	child   time.Duration // time of the sends it made, taken out of Time at the end
}

// NewProfile is an empty profile.
func NewProfile() *Profile {
	return &Profile{ops: map[Operator]*OpStats{}, scans: map[*Scan]*OpStats{}}
}

type profileKey struct{}

// WithProfile makes Run record into p.
func WithProfile(ctx context.Context, p *Profile) context.Context {
	return context.WithValue(ctx, profileKey{}, p)
}

func profileFrom(ctx context.Context) *Profile {
	p, _ := ctx.Value(profileKey{}).(*Profile)
	return p
}

// Op is what op did, false when it never ran under this profile (an
// operator local to a scan's readers runs in the workers, untimed).
func (p *Profile) Op(op Operator) (OpStats, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.ops[op]
	if !ok {
		return OpStats{}, false
	}
	out := *s
	out.Time = max(0, s.Time-s.child)
	out.child = 0
	return out, true
}

// Scan is what sc delivered.
func (p *Profile) Scan(sc *Scan) (OpStats, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.scans[sc]
	if !ok {
		return OpStats{}, false
	}
	return *s, true
}

// ScanTime is the time the driver spent waiting on every scan's readers
// beyond its stages' operators: an epoch's reading phase.
func (p *Profile) ScanTime() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	var d time.Duration
	for _, s := range p.scans {
		d += s.Time
	}
	return d
}

func (p *Profile) op(op Operator) *OpStats {
	s := p.ops[op]
	if s == nil {
		s = &OpStats{}
		p.ops[op] = s
	}
	return s
}

// sent records m leaving op; dt is how long its delivery took, which is
// op's time spent downstream.
func (p *Profile) sent(op Operator, m Message, dt time.Duration) {
	p.mu.Lock()
	s := p.op(op)
	if !m.IsWatermark() && m.Batch != nil && m.Batch.NumRows() > 0 {
		s.Rows += m.Batch.NumRows()
		s.Batches++
	}
	s.child += dt
	p.mu.Unlock()
}

// spent records a call into op that took dt, its sends included.
func (p *Profile) spent(op Operator, dt time.Duration) {
	p.mu.Lock()
	p.op(op).Time += dt
	p.mu.Unlock()
}

// scanned records what a scan delivered: rows in batches, and the time
// the driver spent on it beyond its stage's operators.
func (p *Profile) scanned(sc *Scan, rows, batches int64, dt time.Duration) {
	p.mu.Lock()
	s := p.scans[sc]
	if s == nil {
		s = &OpStats{}
		p.scans[sc] = s
	}
	s.Rows += rows
	s.Batches += batches
	s.Time += dt
	p.mu.Unlock()
}

// Note is the EXPLAIN ANALYZE suffix of a line: "(rows=12, time=1.3ms)".
func (s OpStats) Note() string {
	return fmt.Sprintf("(rows=%d, time=%s)", s.Rows, FormatDuration(s.Time))
}

// FormatDuration rounds d for a plan line: 3 significant digits, in the
// largest unit below it.
func FormatDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3gs", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3gms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.3gµs", float64(d)/float64(time.Microsecond))
	}
}
