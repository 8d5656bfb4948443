package server

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/engine"
	"sluice/internal/job"
	"sluice/internal/stream"
)

// DefaultHistoryInterval is how often the server samples each stream for
// the console's charts; HistoryWindow is how far back the samples go.
const (
	DefaultHistoryInterval = 5 * time.Second
	HistoryWindow          = time.Hour
)

// history keeps, per stream, a ring of samples of its rates, lag and
// watermark delay over the last HistoryWindow, and its last epochs, for
// the console's charts. It is saved in the data dir (history_file.go),
// so a restarted server's charts keep their past (Prometheus, via
// /metrics, is the place for longer history). Only the
// streams this process has run are sampled, from the engine's memory
// (engine.LocalStreams): sampling reads no checkpoint, so it costs no
// storage requests. Rows per second are counted from the committed epochs
// (observe) between two samples, so they stay right across a stream's
// restarts. Streams are keyed by lower-case stream name.
type history struct {
	interval time.Duration
	size     int

	mu     sync.Mutex
	totals map[string]*rowTotals // stream name → rows committed in this process
	rings  map[string]*ring
	epochs map[string]*epochRing // stream name → its last epochs
}

type rowTotals struct{ in, out int64 }

// sample is one point of a stream's history.
type sample struct {
	at            time.Time
	rowsIn        float64 // per second; NaN on a ring's first sample
	rowsOut       float64
	lagFiles      int
	lagBytes      int64
	watermarkLagS float64 // now minus the watermark; NaN without event time
}

// ring holds the newest size samples; next is where the next one goes.
type ring struct {
	samples []sample
	next    int
	full    bool
	last    rowTotals
	lastAt  time.Time
	// live is set once the stream is seen running here: a ring read from
	// the history file waits for its stream to start, and is forgotten
	// only when a live one is gone.
	live bool
}

func newHistory(interval time.Duration) *history {
	if interval <= 0 {
		interval = DefaultHistoryInterval
	}
	size := int(HistoryWindow / interval)
	size = min(max(size, 2), 7200)
	return &history{interval: interval, size: size, totals: map[string]*rowTotals{}, rings: map[string]*ring{},
		epochs: map[string]*epochRing{}}
}

// observe counts one committed epoch's rows.
func (h *history) observe(p stream.Progress) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := strings.ToLower(p.Name)
	t := h.totals[n]
	if t == nil {
		t = &rowTotals{}
		h.totals[n] = t
	}
	t.in += p.RowsIn
	t.out += p.RowsOut
	e := h.epochs[n]
	if e == nil {
		e = &epochRing{}
		h.epochs[n] = e
	}
	e.add(pointOf(p))
}

// record adds one sample at now for each stream of statuses (by
// lower-case stream name) and forgets the streams no longer there.
func (h *history) record(now time.Time, statuses map[string]job.Status) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for n, st := range statuses {
		r := h.rings[n]
		if r == nil {
			r = &ring{samples: make([]sample, h.size)}
			h.rings[n] = r
		}
		var tot rowTotals
		if t := h.totals[n]; t != nil {
			tot = *t
		}
		s := sample{at: now, rowsIn: math.NaN(), rowsOut: math.NaN(), watermarkLagS: math.NaN(),
			lagFiles: st.Last.LagFiles, lagBytes: st.Last.LagBytes}
		if dt := now.Sub(r.lastAt).Seconds(); !r.lastAt.IsZero() && dt > 0 {
			s.rowsIn, s.rowsOut = float64(tot.in-r.last.in)/dt, float64(tot.out-r.last.out)/dt
		}
		if wm := st.Last.Watermark; wm != 0 && wm != stream.NoWatermark {
			s.watermarkLagS = now.Sub(time.UnixMicro(wm)).Seconds()
		}
		r.last, r.lastAt, r.live = tot, now, true
		r.samples[r.next] = s
		r.next = (r.next + 1) % len(r.samples)
		r.full = r.full || r.next == 0
	}
	for n, r := range h.rings {
		if _, ok := statuses[n]; !ok && r.live {
			delete(h.rings, n)
			delete(h.totals, n)
			delete(h.epochs, n)
		}
	}
}

// series returns a stream's samples, oldest first.
func (h *history) series(streamName string) []sample {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seriesLocked(strings.ToLower(streamName))
}

// seriesLocked is series, h.mu held, by lower-case name.
func (h *history) seriesLocked(n string) []sample {
	r := h.rings[n]
	if r == nil {
		return nil
	}
	if !r.full {
		return append([]sample(nil), r.samples[:r.next]...)
	}
	return append(append([]sample(nil), r.samples[r.next:]...), r.samples[:r.next]...)
}

// lastEpochs returns a stream's last epochs, oldest first.
func (h *history) lastEpochs(streamName string) []epochPoint {
	h.mu.Lock()
	defer h.mu.Unlock()
	if e := h.epochs[strings.ToLower(streamName)]; e != nil {
		return append([]epochPoint(nil), e.points...)
	}
	return nil
}

// run samples at once (a console opened just after a start has its
// first point), then every interval until ctx is done, saving to path
// (when set) every historySaveEvery.
func (h *history) run(ctx context.Context, eng *engine.Engine, path string, logf func(string, ...any)) {
	t := time.NewTicker(h.interval)
	defer t.Stop()
	saved := time.Now()
	for now := time.Now(); ; {
		h.record(now, eng.LocalStreams())
		if path != "" && now.Sub(saved) >= historySaveEvery {
			saved = now
			if err := h.save(path); err != nil {
				logf("warning: %v", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case now = <-t.C:
		}
	}
}

// HistoryJSON is a stream's history in columns, oldest first, as charts
// take it: time[i] goes with every other column's [i]. A null rate is the
// first sample (nothing to count from), a null watermark delay a stream
// without event time.
//
//	GET /api/v1/streams/{name}/history
type HistoryJSON struct {
	Name            string  `json:"name"`
	Stream          string  `json:"stream"`
	IntervalSeconds float64 `json:"interval_seconds"`
	// Time is Unix seconds.
	Time                  []float64  `json:"time"`
	RowsInPerSecond       []*float64 `json:"rows_in_per_second"`
	RowsOutPerSecond      []*float64 `json:"rows_out_per_second"`
	LagFiles              []int      `json:"lag_files"`
	LagBytes              []int64    `json:"lag_bytes"`
	WatermarkDelaySeconds []*float64 `json:"watermark_delay_seconds"`
	// Epochs are its last epochs (history_epochs.go).
	Epochs EpochsJSON `json:"epochs"`
}

func (s *Server) handleStreamHistory(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	in, err := s.eng.Stream(r.Context(), name)
	if errors.Is(err, catalog.ErrNotFound) {
		writeError(w, &notFoundError{msg: "no stream or materialized view " + name})
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	samples := s.history.series(in.StreamName)
	out := HistoryJSON{Name: in.Name, Stream: in.StreamName, IntervalSeconds: s.history.interval.Seconds(),
		Time: make([]float64, 0, len(samples)), RowsInPerSecond: make([]*float64, 0, len(samples)),
		RowsOutPerSecond: make([]*float64, 0, len(samples)), LagFiles: make([]int, 0, len(samples)),
		LagBytes: make([]int64, 0, len(samples)), WatermarkDelaySeconds: make([]*float64, 0, len(samples))}
	for _, sm := range samples {
		out.Time = append(out.Time, float64(sm.at.UnixMilli())/1000)
		out.RowsInPerSecond = append(out.RowsInPerSecond, nullable(sm.rowsIn))
		out.RowsOutPerSecond = append(out.RowsOutPerSecond, nullable(sm.rowsOut))
		out.LagFiles = append(out.LagFiles, sm.lagFiles)
		out.LagBytes = append(out.LagBytes, sm.lagBytes)
		out.WatermarkDelaySeconds = append(out.WatermarkDelaySeconds, nullable(sm.watermarkLagS))
	}
	out.Epochs = epochsJSON(s.history.lastEpochs(in.StreamName))
	writeOK(w, out)
}

// nullable is nil for NaN (JSON has no NaN).
func nullable(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}
