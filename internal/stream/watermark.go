package stream

// Watermark owns a stream's event-time progress: the largest event time
// seen, the delay, and the watermark derived from them. It never moves
// back. The watermark used by epoch N is computed before N runs and
// recorded in offsets/N, so a replay judges lateness identically.
//
//	w := Watermark{Delay: time.Minute.Microseconds()}
//	w.Observe(ts)          // after each epoch, the epoch's max event time
//	next := w.Current()    // recorded in the next epoch's offsets
type Watermark struct {
	// Delay is how far behind the largest event time the watermark
	// trails, in microseconds.
	Delay int64
	// IdleTimeout, when positive, lets processing time advance an idle
	// stream's watermark: after IdleTimeout µs without new data the
	// watermark moves by the processing time that passed.
	IdleTimeout int64

	maxEvent  int64
	current   int64
	seen      bool
	idleSince int64
}

// NewWatermark starts with no event seen.
func NewWatermark(delay, idleTimeout int64) *Watermark {
	return &Watermark{Delay: delay, IdleTimeout: idleTimeout, current: NoWatermark}
}

// Restore sets the state recovered from a checkpoint.
func (w *Watermark) Restore(maxEvent, current int64) {
	w.maxEvent, w.current, w.seen = maxEvent, current, maxEvent != NoWatermark
}

// Observe folds in the largest event time of an epoch (NoWatermark when
// the epoch had no rows) at processing time now (µs).
func (w *Watermark) Observe(maxEvent, now int64) {
	if maxEvent == NoWatermark {
		if w.IdleTimeout > 0 && w.seen {
			if w.idleSince == 0 {
				w.idleSince = now
			} else if now-w.idleSince >= w.IdleTimeout {
				w.maxEvent += now - w.idleSince
				w.idleSince = now
				w.advance()
			}
		}
		return
	}
	w.idleSince = 0
	if !w.seen || maxEvent > w.maxEvent {
		w.maxEvent, w.seen = maxEvent, true
	}
	w.advance()
}

func (w *Watermark) advance() {
	if !w.seen {
		return
	}
	if c := w.maxEvent - w.Delay; c > w.current {
		w.current = c
	}
}

// Current is the watermark for the next epoch (NoWatermark before any
// event).
func (w *Watermark) Current() int64 { return w.current }

// MaxEvent is the largest event time seen (NoWatermark before any).
func (w *Watermark) MaxEvent() int64 {
	if !w.seen {
		return NoWatermark
	}
	return w.maxEvent
}
