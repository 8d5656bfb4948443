package server

import (
	"context"
	"fmt"
	"net/http"
	"sync"
)

// DefaultMaxConcurrentQueries is Limits.MaxConcurrentQueries unless set:
// enough for many clients of small queries (`bench serve` runs 64 plus its
// own statements), few enough that a flood of requests is refused rather
// than run all at once.
const DefaultMaxConcurrentQueries = 128

// querySlots bound the API queries running at once, over every path that
// runs one (sql, ppl, their explains, async, /api/v1/statement). Taking a
// slot never waits: a request that finds them all taken is answered 429
// with Retry-After at once, so requests do not pile up behind each other
// holding connections, memory and goroutines.
//
// Stream epochs never take these slots, nor wait for them: they have the
// scheduler's epoch slots (--max-concurrent-epochs) to themselves, and
// since an API query is either running or refused, no API query ever
// waits in front of an epoch. Epochs thus always come first; API load
// reaches them only as CPU the running queries use, which this bound
// caps.
type querySlots chan struct{}

func newQuerySlots(n int) querySlots { return make(querySlots, max(n, 1)) }

// tryTake takes a slot without waiting; false when all are taken.
func (q querySlots) tryTake() bool {
	select {
	case q <- struct{}{}:
		return true
	default:
		return false
	}
}

func (q querySlots) release() { <-q }

// busyError is a query refused because every slot is taken: 429.
type busyError struct{ limit int }

func (e *busyError) Error() string {
	return fmt.Sprintf("the server is running its limit of %d queries at once (--max-concurrent-queries): retry later", e.limit)
}

// querySlot is a request's slot. A handler that goes on with the query
// after its response (an async submission) detaches it and releases it
// itself when the query ends.
type querySlot struct {
	once     sync.Once
	slots    querySlots
	detached bool
}

type querySlotKey struct{}

// detachQuerySlot hands the slot of the request in ctx to the caller:
// the returned func releases it (once). Without a slot it does nothing.
func detachQuerySlot(ctx context.Context) func() {
	qs, _ := ctx.Value(querySlotKey{}).(*querySlot)
	if qs == nil {
		return func() {}
	}
	qs.detached = true
	return func() { qs.once.Do(qs.slots.release) }
}

// limitQueries runs h in a query slot, or answers 429 with Retry-After
// when there is none free.
// Each request is audited (audit.go), a 429 too.
func (s *Server) limitQueries(h http.HandlerFunc) http.HandlerFunc {
	return s.audited(func(w http.ResponseWriter, r *http.Request) {
		if !s.queries.tryTake() {
			w.Header().Set("Retry-After", "1")
			writeError(w, &busyError{limit: s.limits.MaxConcurrentQueries})
			return
		}
		qs := &querySlot{slots: s.queries}
		defer func() {
			if !qs.detached {
				qs.once.Do(qs.slots.release)
			}
		}()
		leave, err := s.priority.enter(r.Context())
		if err != nil {
			return // the client went away while epochs ran
		}
		defer leave()
		h(w, r.WithContext(context.WithValue(r.Context(), querySlotKey{}, qs)))
	})
}
