package server

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// cursorStore keeps the results being paged with fetch_size. A cursor
// names a materialized result and where its next page starts; it lives
// until its last page is fetched, it is closed, or it sits idle for
// cursorIdle. At most maxCursors are open: the oldest goes first.
type cursorStore struct {
	mu   sync.Mutex
	open map[string]*cursor
	now  func() time.Time
}

type cursor struct {
	res      *result
	next     int
	size     int
	lastUsed time.Time
}

const (
	cursorIdle = 5 * time.Minute
	maxCursors = 1000
)

func newCursorStore() *cursorStore {
	return &cursorStore{open: map[string]*cursor{}, now: time.Now}
}

// first pages a fresh result: its first page, and the cursor to the rest
// when there is more than one page of size rows.
func (s *cursorStore) first(res *result, size int) page {
	if size <= 0 || res.total <= size {
		return page{res: res, from: 0, to: res.total}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	id := newCursorID()
	s.open[id] = &cursor{res: res, next: size, size: size, lastUsed: s.now()}
	return page{res: res, from: 0, to: size, cursor: id}
}

// next returns the page after the one id was handed out with; ok is false
// for an unknown (closed, finished or expired) cursor. The last page
// closes the cursor.
func (s *cursorStore) next(id string) (p page, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	c, ok := s.open[id]
	if !ok {
		return page{}, false
	}
	from, to := c.next, min(c.next+c.size, c.res.total)
	p = page{res: c.res, from: from, to: to}
	if to >= c.res.total {
		delete(s.open, id)
		return p, true
	}
	// Each page gets a cursor of its own, so a retried request for an old
	// page fails loudly instead of silently skipping rows.
	delete(s.open, id)
	nid := newCursorID()
	c.next, c.lastUsed = to, s.now()
	s.open[nid] = c
	p.cursor = nid
	return p, true
}

// close forgets a cursor; false when it was not open.
func (s *cursorStore) close(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.open[id]
	delete(s.open, id)
	return ok
}

func (s *cursorStore) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.open)
}

// expire drops idle cursors and, past maxCursors, the least recently used.
func (s *cursorStore) expire() {
	now := s.now()
	for id, c := range s.open {
		if now.Sub(c.lastUsed) > cursorIdle {
			delete(s.open, id)
		}
	}
	for len(s.open) >= maxCursors {
		var oldest string
		for id, c := range s.open {
			if oldest == "" || c.lastUsed.Before(s.open[oldest].lastUsed) {
				oldest = id
			}
		}
		delete(s.open, oldest)
	}
}

func newCursorID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "s:" + hex.EncodeToString(b[:])
}
