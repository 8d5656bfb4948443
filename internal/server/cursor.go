package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// batchReader is a result read batch by batch: Next returns the next
// batch (the caller's to Release) or io.EOF after the last, waiting at
// most until ctx is done; Close releases whatever the reader holds (a
// running query) and may be called more than once. engine.Rows is one: a
// cursor over a SELECT keeps its query running and reads each page when
// it is asked for.
type batchReader interface {
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close()
}

// sliceReader reads a materialized result's batches.
type sliceReader struct {
	batches []arrow.RecordBatch
	i       int
}

var _ batchReader = (*sliceReader)(nil)

func (r *sliceReader) Next(context.Context) (arrow.RecordBatch, error) {
	for r.i < len(r.batches) {
		b := r.batches[r.i]
		r.i++
		if b != nil && b.NumRows() > 0 {
			b.Retain()
			return b, nil
		}
	}
	return nil, io.EOF
}

func (r *sliceReader) Close() { r.i = len(r.batches) }

// cursorStore keeps the results being paged with fetch_size. A cursor
// holds a result's reader and the rows it read ahead (at most one batch
// past the page it answered), so a SELECT's query keeps running, blocked
// while nobody asks for the next page, instead of being held whole in
// memory. A cursor lives until its last page is fetched, it is closed,
// or it sits idle for cursorIdle (a sweep every cursorSweep closes idle
// ones, ending their query). At most maxCursors are open: the least
// recently used goes first.
type cursorStore struct {
	mu   sync.Mutex
	open map[string]*cursor
	now  func() time.Time
	stop chan struct{}
	once sync.Once
}

type cursor struct {
	schema *arrow.Schema
	rd     batchReader
	// pending are rows read from rd and not yet served (one batch, or
	// the rest of one).
	pending arrow.RecordBatch
	eof     bool
	// read counts the rows taken from rd; total is the whole result's
	// when known up front (a materialized result), else -1.
	read, total int
	size        int
	lastUsed    time.Time
}

const (
	cursorIdle  = 5 * time.Minute
	cursorSweep = 30 * time.Second
	maxCursors  = 1000
)

func newCursorStore() *cursorStore {
	s := &cursorStore{open: map[string]*cursor{}, now: time.Now, stop: make(chan struct{})}
	go s.sweep()
	return s
}

// sweep closes idle cursors until closeAll: their queries must not run
// (nor hold memory) until the next request happens to expire them.
func (s *cursorStore) sweep() {
	t := time.NewTicker(cursorSweep)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.expire()
		}
	}
}

// first pages a fresh result read from rd, of total rows (-1: not known
// until read): its first page of at most size rows (size <= 0: every
// row), and the cursor to the rest when more rows follow. rd is the
// store's from here: closed when the result is done with.
func (s *cursorStore) first(ctx context.Context, schema *arrow.Schema, rd batchReader, total, size int) (page, error) {
	c := &cursor{schema: schema, rd: rd, total: total, size: size}
	if size <= 0 {
		c.size = int(^uint(0) >> 1)
	}
	p, more, err := c.nextPage(ctx)
	if err != nil || !more {
		c.close()
		return p, err
	}
	s.expire()
	s.mu.Lock()
	defer s.mu.Unlock()
	p.cursor = s.putLocked(c)
	return p, nil
}

// firstResult is first over a materialized result.
func (s *cursorStore) firstResult(ctx context.Context, res *result, size int) (page, error) {
	return s.first(ctx, res.schema, &sliceReader{batches: res.batches}, res.total, size)
}

// next returns the page after the one id was handed out with; ok is false
// for an unknown (closed, finished or expired) cursor. The last page, or
// an error reading it, closes the cursor.
func (s *cursorStore) next(ctx context.Context, id string) (p page, ok bool, err error) {
	s.mu.Lock()
	c, ok := s.open[id]
	// Each page gets a cursor of its own, so a retried request for an old
	// page fails loudly instead of silently skipping rows; taking the
	// cursor out also keeps two requests from reading it at once.
	delete(s.open, id)
	s.mu.Unlock()
	if !ok {
		return page{}, false, nil
	}
	p, more, err := c.nextPage(ctx)
	if err != nil || !more {
		c.close()
		return p, true, err
	}
	s.expire()
	s.mu.Lock()
	defer s.mu.Unlock()
	p.cursor = s.putLocked(c)
	return p, true, nil
}

func (s *cursorStore) putLocked(c *cursor) string {
	id := newCursorID()
	c.lastUsed = s.now()
	s.open[id] = c
	return id
}

// close forgets a cursor and ends its query; false when it was not open.
func (s *cursorStore) close(id string) bool {
	s.mu.Lock()
	c, ok := s.open[id]
	delete(s.open, id)
	s.mu.Unlock()
	if ok {
		c.close()
	}
	return ok
}

// closeAll closes every cursor and stops the sweep.
func (s *cursorStore) closeAll() {
	s.once.Do(func() { close(s.stop) })
	s.mu.Lock()
	all := s.open
	s.open = map[string]*cursor{}
	s.mu.Unlock()
	for _, c := range all {
		c.close()
	}
}

// expire closes idle cursors and, past maxCursors-1, the least recently
// used (making room for one more).
func (s *cursorStore) expire() {
	var gone []*cursor
	s.mu.Lock()
	now := s.now()
	for id, c := range s.open {
		if now.Sub(c.lastUsed) > cursorIdle {
			delete(s.open, id)
			gone = append(gone, c)
		}
	}
	for len(s.open) >= maxCursors {
		var oldest string
		for id, c := range s.open {
			if oldest == "" || c.lastUsed.Before(s.open[oldest].lastUsed) {
				oldest = id
			}
		}
		gone = append(gone, s.open[oldest])
		delete(s.open, oldest)
	}
	s.mu.Unlock()
	for _, c := range gone {
		c.close()
	}
}

// openCount is how many cursors are open (tests).
func (s *cursorStore) openCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open)
}

// nextPage reads the next page of at most c.size rows, then one batch
// ahead when the page used up what was read, so more says truly whether
// rows follow (the last page carries no cursor). The page owns its
// batches: release them once written.
func (c *cursor) nextPage(ctx context.Context) (p page, more bool, err error) {
	var out []arrow.RecordBatch
	n := 0
	fail := func(err error) (page, bool, error) {
		for _, b := range out {
			b.Release()
		}
		return page{}, false, err
	}
	for n < c.size {
		if c.pending == nil {
			if err := c.readAhead(ctx); err != nil {
				return fail(err)
			}
			if c.pending == nil {
				break
			}
		}
		rows := int(c.pending.NumRows())
		take := min(c.size-n, rows)
		if take == rows {
			out = append(out, c.pending)
			c.pending = nil
		} else {
			out = append(out, c.pending.NewSlice(0, int64(take)))
			rest := c.pending.NewSlice(int64(take), int64(rows))
			c.pending.Release()
			c.pending = rest
		}
		n += take
	}
	if c.pending == nil {
		if err := c.readAhead(ctx); err != nil {
			return fail(err)
		}
	}
	total := c.total
	if total < 0 {
		total = c.read
	}
	res := &result{schema: c.schema, batches: out, total: n}
	return page{res: res, from: 0, to: n, total: total, owned: true}, c.pending != nil, nil
}

// readAhead sets c.pending to the reader's next batch; nil at the end.
func (c *cursor) readAhead(ctx context.Context) error {
	if c.eof {
		return nil
	}
	b, err := c.rd.Next(ctx)
	if errors.Is(err, io.EOF) {
		c.eof = true
		return nil
	}
	if err != nil {
		return err
	}
	c.pending = b
	c.read += int(b.NumRows())
	return nil
}

func (c *cursor) close() {
	if c.pending != nil {
		c.pending.Release()
		c.pending = nil
	}
	c.rd.Close()
}

func newCursorID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "s:" + hex.EncodeToString(b[:])
}
