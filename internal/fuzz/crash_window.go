package fuzz

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A windowed crash schedule aggregates the stream by a TUMBLE or HOP
// window of an event-time column ev (and, half the time, a key column),
// over a source that declares WATERMARK FOR ev. Every row's ev lies in
// [evStart, evStart + 30 minutes) and the delay is 30 minutes, so no row
// is ever late, whatever order the files land in; the stream emits a
// window (append mode) once the watermark passes its end. A last file,
// one row at evFlush, moves the watermark past every window of the data,
// so the sink must finally hold exactly the batch GROUP BY's rows (the
// flush row's own window stays open). The flush row passes the WHERE
// (ev >= evFlush is or-ed in): a watermark counts the rows after the
// filter, as Spark's does once it pushes the filter below it.
//
// It catches: windows lost or emitted twice by a kill anywhere in an
// epoch (state snapshots and deltas, the watermark kept in the offsets, a
// window emitted but its removal from state not committed, the trailing
// no-data epoch that emits after the flush), and windowed aggregates
// differing from the batch path's. It cannot catch: late rows (none are
// drawn), update or complete output modes, or idle timeouts.
const (
	evStart  = "2026-01-01 00:00:00"
	evFlush  = "TIMESTAMP '2026-01-02 00:00:00'"
	evDelay  = "INTERVAL 30 MINUTES"
	evColumn = "ev"
)

// windowAgg is a windowed schedule's aggregation.
type windowAgg struct {
	// window is TUMBLE(ev, ...) or HOP(ev, ...).
	window string
	// key is the extra GROUP BY column, "" for none.
	key string
	// aggs are the aggregate calls after the window start.
	aggs []string
}

// drawWindow turns s into a windowed schedule: t gets the event-time
// column, and s's SELECT list becomes the window start, the key and the
// aggregates (with their output types).
func drawWindow(r *rand.Rand, s *schedule) {
	t := s.t
	w := &windowAgg{}
	if r.IntN(2) == 0 {
		w.window = fmt.Sprintf("TUMBLE(%s, '%s')", evColumn, []string{"2 minutes", "5 minutes", "10 minutes"}[r.IntN(3)])
	} else {
		p := [][2]string{{"10 minutes", "5 minutes"}, {"6 minutes", "2 minutes"}, {"5 minutes", "5 minutes"}}[r.IntN(3)]
		w.window = fmt.Sprintf("HOP(%s, '%s', '%s')", evColumn, p[0], p[1])
	}
	s.proj, s.types = []string{w.window + ".start"}, []Type{Timestamp}
	if r.IntN(2) == 0 {
		c := t.Cols[r.IntN(len(t.Cols))]
		w.key = c.Name
		s.proj, s.types = append(s.proj, c.Name), append(s.types, c.Type)
	}
	w.aggs = []string{"count(*)"}
	s.types = append(s.types, BigInt)
	c := t.Cols[r.IntN(len(t.Cols))]
	w.aggs = append(w.aggs, "count("+c.Name+")", "min("+c.Name+")", "max("+c.Name+")")
	s.types = append(s.types, BigInt, c.Type, c.Type)
	if c.Type == Int || c.Type == BigInt {
		w.aggs = append(w.aggs, "sum("+c.Name+")")
		s.types = append(s.types, BigInt)
	}
	s.proj = append(s.proj, w.aggs...)
	t.Cols = append(t.Cols, Column{Name: evColumn, Type: Timestamp})
	for _, rows := range t.Batches {
		for i := range rows {
			rows[i] = append(rows[i], fmt.Sprintf("TIMESTAMP '2026-01-01 00:%02d:%02d'", r.IntN(30), []int{0, 30, 59}[r.IntN(3)]))
		}
	}
	s.win = w
}

// selectFrom is the windowed query over table.
func (w *windowAgg) selectFrom(s *schedule, table string) string {
	group := w.window
	if w.key != "" {
		group += ", " + w.key
	}
	return "SELECT " + strings.Join(s.proj, ", ") + " FROM " + table + " WHERE (" + s.pred + ") OR " + evColumn + " >= " + evFlush +
		" GROUP BY " + group
}

// flushTable is the table whose one file, landing last, closes every
// window of the data: t's schema, NULLs but for ev.
func (w *windowAgg) flushTable(t *Table, dir string) *Table {
	f := *t
	f.Name, f.Location, f.Twins, f.Index = "flush", dir+"/flush/", nil, nil
	row := make([]string, len(t.Cols))
	for i := range row {
		row[i] = "NULL"
	}
	row[len(row)-1] = evFlush
	if t.Part >= 0 {
		// A NULL partition value is a folder of its own name; any value
		// of the pools does.
		row[t.Part] = genValue(newRand(1), t.Cols[t.Part].Type, true)
	}
	f.Batches = [][][]string{{row}}
	return &f
}

// landFlush moves the flush table's file into the source, last, and
// runs the stream over it.
func (c *crashRun) landFlush(flush *Table, st *CrashStats) (*Divergence, error) {
	files, err := inputFiles(flush.Location)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := moveInto(flush.Location, c.src, f); err != nil {
			return nil, err
		}
	}
	c.log = append(c.log, "-- the flush file lands: "+strings.Join(files, ", "))
	return c.catchUp(st)
}
