package opensearch

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// sizer adapts the size of _bulk requests and how many are in flight to
// what the cluster takes, additive increase and multiplicative decrease
// (AIMD, as TCP does): a response that turned documents away with 429
// halves the request size (from the size of the request refused) and the
// requests in flight; each clean response faster than slow adds a
// sixteenth of the byte range to the size, and a full window of them
// (as many clean responses as requests allowed in flight) one request in
// flight. The options are its bounds and starting point: bulk_max_bytes
// is the largest request and the first, bulk_concurrent_requests the most
// in flight and the first; a request never shrinks below minBytes (a
// single document larger than the target still goes alone).
//
// One overload shows as several refused responses at once, one per
// request then in flight; only the first shrinks. Each request carries
// the generation it was sent under (acquire), and a refusal of a request
// sent before the last decrease is already accounted for.
type sizer struct {
	minBytes, maxBytes int
	maxLimit           int
	slow               time.Duration

	target atomic.Int64 // request size in bytes, read by the writer per document

	mu       sync.Mutex
	cond     *sync.Cond
	limit    int   // requests allowed in flight
	inflight int   // requests holding a slot
	clean    int   // clean fast responses since the limit last changed
	gen      int64 // bumped at each decrease
}

// Defaults of the sizer that are not options.
const (
	minBulkBytes = 64 << 10
	// slowResponse is the latency above which a clean response does not
	// grow requests: the node is busy enough.
	slowResponse = 10 * time.Second
)

func newSizer(maxBytes, concurrency int, slow time.Duration) *sizer {
	s := &sizer{minBytes: min(minBulkBytes, maxBytes), maxBytes: maxBytes, maxLimit: concurrency,
		slow: slow, limit: concurrency}
	s.cond = sync.NewCond(&s.mu)
	s.target.Store(int64(maxBytes))
	return s
}

// size is the byte size a request fills up to now.
func (s *sizer) size() int { return int(s.target.Load()) }

// acquire waits for a slot in flight and returns the generation the
// request goes out under; it fails only when ctx ends.
func (s *sizer) acquire(ctx context.Context) (int64, error) {
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.inflight >= s.limit {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		s.cond.Wait()
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.inflight++
	return s.gen, nil
}

// release gives back a slot taken by acquire.
func (s *sizer) release() {
	s.mu.Lock()
	s.inflight--
	s.cond.Broadcast()
	s.mu.Unlock()
}

// observe adapts to one response: of a request sent under gen, sent
// bytes long, that took latency; refused says it turned documents away
// with 429 (all of them or some items).
func (s *sizer) observe(gen int64, sent int, refused bool, latency time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := int(s.target.Load())
	switch {
	case refused:
		if gen != s.gen {
			return // sent before the last decrease: already accounted for
		}
		s.gen++
		s.clean = 0
		s.target.Store(int64(max(s.minBytes, min(cur, sent)/2)))
		s.limit = max(1, s.limit/2)
		s.cond.Broadcast()
	case latency <= s.slow:
		step := max(1, (s.maxBytes-s.minBytes)/16)
		s.target.Store(int64(min(s.maxBytes, cur+step)))
		s.clean++
		if s.clean >= s.limit {
			s.clean = 0
			if s.limit < s.maxLimit {
				s.limit++
				s.cond.Broadcast()
			}
		}
	}
}

// state is the size and the requests allowed in flight, for Stats.
func (s *sizer) state() (bytes, limit int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(s.target.Load()), s.limit
}
