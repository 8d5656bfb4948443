package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"sluice/internal/engine"
)

// progressBar draws engine.Progress on one terminal line, at most every
// interval, and erases it when the statement ends so results and errors
// start on a clean line. Statements quicker than delay never show it, so
// small queries do not flicker.
type progressBar struct {
	w               io.Writer
	interval, delay time.Duration
	now             func() time.Time

	mu    sync.Mutex
	start time.Time // first update of the current statement
	last  time.Time // last draw
	shown bool
}

func newProgressBar(w io.Writer) *progressBar {
	return &progressBar{w: w, interval: 100 * time.Millisecond, delay: 300 * time.Millisecond, now: time.Now}
}

// Update is the engine's Options.Progress callback; scans may call it
// from several goroutines.
func (p *progressBar) Update(pr engine.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.start.IsZero() {
		p.start = now
	}
	if now.Sub(p.start) < p.delay || now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	fmt.Fprint(p.w, "\r\x1b[K"+progressLine(pr, 24))
	p.shown = true
}

// Println writes a line of its own (a streaming epoch's summary) above
// the bar, erasing the bar first; the next Update redraws it.
func (p *progressBar) Println(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
	fmt.Fprintln(p.w, line)
	p.last = time.Time{}
}

// Clear erases the bar if it was drawn.
func (p *progressBar) Clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
	p.start, p.last = time.Time{}, time.Time{}
}

// progressLine renders "[######------] 50%  3/6 files  1.5 MiB/3.0 MiB  12,000 rows".
func progressLine(pr engine.Progress, width int) string {
	frac := 0.0
	switch {
	case pr.BytesTotal > 0:
		frac = float64(pr.BytesDone) / float64(pr.BytesTotal)
	case pr.FilesTotal > 0:
		frac = float64(pr.FilesDone) / float64(pr.FilesTotal)
	}
	frac = min(max(frac, 0), 1)
	filled := int(frac * float64(width))
	return fmt.Sprintf("[%s%s] %3d%%  %d/%d files  %s/%s  %s rows",
		strings.Repeat("#", filled), strings.Repeat("-", width-filled), int(frac*100),
		pr.FilesDone, pr.FilesTotal, humanBytes(pr.BytesDone), humanBytes(pr.BytesTotal),
		groupThousands(pr.RowsRead))
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

func groupThousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
