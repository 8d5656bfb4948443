package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"sluice/internal/formatver"
	"sluice/internal/stream"
)

// HistoryFile is the console's history in the data dir: the charts'
// samples and epochs, saved every historySaveEvery and at Close, read at
// Open, so a restarted server's charts go on where they were. It is
// bounded (historyFileSamples per stream, epochsKept epochs, at most
// historyFileStreams streams: about 90 KB a stream, 9 MB at most); samples older
// than HistoryWindow are dropped when it is read.
const HistoryFile = "console-history.json"

const (
	historySaveEvery   = 30 * time.Second
	historyFileSamples = 720
	historyFileStreams = 100
)

type historyFileJSON struct {
	formatver.Stamp
	Saved   time.Time                    `json:"saved"`
	Streams map[string]historyStreamJSON `json:"streams"`
}

type historyStreamJSON struct {
	Samples []sampleJSON `json:"samples"`
	Epochs  []pointJSON  `json:"epochs"`
}

// sampleJSON is a sample; null rates and delays are NaN (JSON has none).
type sampleJSON struct {
	At       int64    `json:"t"` // Unix ms
	RowsIn   *float64 `json:"in"`
	RowsOut  *float64 `json:"out"`
	LagFiles int      `json:"lag_files"`
	LagBytes int64    `json:"lag_bytes"`
	WMDelay  *float64 `json:"wm_delay_s"`
}

type pointJSON struct {
	At          int64              `json:"t"` // Unix ms
	Epoch       int64              `json:"epoch"`
	DurationUS  int64              `json:"duration_us"`
	Phases      *stream.PhasesJSON `json:"phases"`
	InputRate   float64            `json:"input_rate"`
	ProcessRate float64            `json:"process_rate"`
}

func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// save writes the history to path (a temporary file renamed over it).
func (h *history) save(path string) error {
	if path == "" {
		return nil
	}
	h.mu.Lock()
	out := historyFileJSON{Stamp: formatver.ConsoleHistory.Stamp(), Saved: time.Now().UTC(), Streams: map[string]historyStreamJSON{}}
	names := make([]string, 0, len(h.rings))
	for n := range h.rings {
		names = append(names, n)
	}
	for n := range h.epochs {
		if h.rings[n] == nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names[:min(len(names), historyFileStreams)] {
		var hs historyStreamJSON
		samples := h.seriesLocked(n)
		for _, s := range samples[max(0, len(samples)-historyFileSamples):] {
			hs.Samples = append(hs.Samples, sampleJSON{At: s.at.UnixMilli(), RowsIn: nullable(s.rowsIn), RowsOut: nullable(s.rowsOut),
				LagFiles: s.lagFiles, LagBytes: s.lagBytes, WMDelay: nullable(s.watermarkLagS)})
		}
		if e := h.epochs[n]; e != nil {
			for _, p := range e.points {
				hs.Epochs = append(hs.Epochs, pointJSON{At: p.at.UnixMilli(), Epoch: p.epoch, DurationUS: p.duration.Microseconds(),
					Phases: p.phases.JSON(), InputRate: p.inputRate, ProcessRate: p.processRate})
			}
		}
		out.Streams[n] = hs
	}
	h.mu.Unlock()
	b, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("saving the console history: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("saving the console history: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("saving the console history: %w", err)
	}
	return nil
}

// load reads path into an empty history. A missing file is no history;
// a newer format's is not read (and is replaced at the next save: it is
// only the charts' past).
func (h *history) load(path string, now time.Time) error {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the console history: %w", err)
	}
	var in historyFileJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("reading the console history %s: %w", path, err)
	}
	if err := formatver.ConsoleHistory.Check(path, in.Stamp); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	oldest := now.Add(-HistoryWindow)
	for n, hs := range in.Streams {
		r := &ring{samples: make([]sample, h.size)}
		for _, s := range hs.Samples {
			at := time.UnixMilli(s.At)
			if at.Before(oldest) || at.After(now) {
				continue
			}
			r.samples[r.next] = sample{at: at, rowsIn: orNaN(s.RowsIn), rowsOut: orNaN(s.RowsOut), lagFiles: s.LagFiles,
				lagBytes: s.LagBytes, watermarkLagS: orNaN(s.WMDelay)}
			r.next = (r.next + 1) % len(r.samples)
			r.full = r.full || r.next == 0
		}
		// lastAt stays zero: the first sample after the restart has no
		// rate (a gap in the chart), not one counted across the downtime.
		h.rings[n] = r
		e := &epochRing{}
		for _, p := range hs.Epochs {
			e.add(epochPoint{at: time.UnixMilli(p.At), epoch: p.Epoch, duration: time.Duration(p.DurationUS) * time.Microsecond,
				phases: p.Phases.Phases(), inputRate: p.InputRate, processRate: p.ProcessRate})
		}
		if len(e.points) > 0 {
			h.epochs[n] = e
		}
	}
	return nil
}

// historyPath is "" for a server without a data dir: nothing is saved.
func historyPath(dataDir string) string {
	if dataDir == "" {
		return ""
	}
	return filepath.Join(dataDir, HistoryFile)
}
