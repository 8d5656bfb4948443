package stream

import (
	"fmt"
	"strings"
	"time"

	"sluice/internal/types"
	"sluice/internal/usererr"
)

// Trigger says when epochs run: every Interval, or once ('once': one
// epoch with whatever is new), or until caught up ('available_now': the
// backlog in rate-limited epochs, then stop).
type Trigger struct {
	Interval     time.Duration
	Once         bool
	AvailableNow bool
}

// Stops reports whether the stream ends by itself once caught up.
func (t Trigger) Stops() bool { return t.Once || t.AvailableNow }

func (t Trigger) String() string {
	switch {
	case t.Once:
		return "once"
	case t.AvailableNow:
		return "available_now"
	}
	return t.Interval.String()
}

// ParseTrigger reads the trigger option: an interval ('10 seconds',
// '500 ms'), 'once' or 'available_now'. Empty means as fast as possible
// (an interval of zero), like Spark's default trigger.
func ParseTrigger(s string) (Trigger, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	switch v {
	case "":
		return Trigger{}, nil
	case "once":
		return Trigger{Once: true}, nil
	case "available_now", "availablenow", "available-now":
		return Trigger{AvailableNow: true}, nil
	}
	iv, err := types.ParseInterval(v)
	if err != nil {
		return Trigger{}, usererr.Errorf(usererr.Invalid, "trigger %q: want an interval like '10 seconds', 'once' or 'available_now'", s)
	}
	d := time.Duration(types.IntervalMicros(iv)) * time.Microsecond
	if d < 0 {
		return Trigger{}, fmt.Errorf("trigger %q: interval must not be negative", s)
	}
	return Trigger{Interval: d}, nil
}
