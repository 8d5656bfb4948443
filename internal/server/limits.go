package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"sluice/internal/engine"
)

// Defaults of the request limits (Options.MaxBody, QueryTimeout, MaxRows,
// WriteTimeout, MaxResultBytes).
const (
	DefaultMaxBody        = 1 << 20
	DefaultQueryTimeout   = 10 * time.Minute
	DefaultMaxRows        = 10000
	DefaultWriteTimeout   = 30 * time.Second
	DefaultMaxResultBytes = 64 << 20
)

// Limits bound what one request may cost the server.
type Limits struct {
	// MaxBody is the largest request body in bytes; a larger one is 413.
	MaxBody int64
	// QueryTimeout cancels a statement that runs longer (504).
	QueryTimeout time.Duration
	// MaxRows is the most rows one response carries: a jdbc result
	// beyond it is paged with a cursor as if fetch_size were MaxRows,
	// /api/v1/statement and the other formats refuse it (400).
	MaxRows int
	// WriteTimeout is how long writing one response may take once it
	// starts: a client that stops reading is cut off after it. A
	// response's rows (one page of a cursor) are read before its first
	// byte is written, so a slow client holds only its own connection
	// (and its cursor's query, blocked), never another statement or a
	// stream.
	WriteTimeout time.Duration
	// MaxResultBytes bounds an async query's result file in
	// <data dir>/queries: a result that would be larger fails the query
	// and nothing past the limit is written, so async clients cannot
	// fill the disk.
	MaxResultBytes int64
	// MaxConcurrentQueries bounds the API queries running at once over
	// every query path (sql, ppl, async, /api/v1/statement); one more
	// is refused at once (429 with Retry-After) rather than queued.
	MaxConcurrentQueries int
}

func (l Limits) withDefaults() Limits {
	if l.MaxBody <= 0 {
		l.MaxBody = DefaultMaxBody
	}
	if l.QueryTimeout <= 0 {
		l.QueryTimeout = DefaultQueryTimeout
	}
	if l.MaxRows <= 0 {
		l.MaxRows = DefaultMaxRows
	}
	if l.WriteTimeout <= 0 {
		l.WriteTimeout = DefaultWriteTimeout
	}
	if l.MaxConcurrentQueries <= 0 {
		l.MaxConcurrentQueries = DefaultMaxConcurrentQueries
	}
	if l.MaxResultBytes <= 0 {
		l.MaxResultBytes = DefaultMaxResultBytes
	}
	return l
}

// tooLargeError is a request body over MaxBody: 413.
type tooLargeError struct{ limit int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("the request body is larger than the server's limit of %d bytes (--max-body)", e.limit)
}

// bodyError turns a failed body read into 413 when the limit cut it.
func bodyError(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &tooLargeError{limit: mb.Limit}
	}
	return badRequest("reading request body: " + err.Error())
}

// timeoutError is a statement cancelled by QueryTimeout: 504.
type timeoutError struct{ limit time.Duration }

func (e *timeoutError) Error() string {
	return fmt.Sprintf("the statement ran longer than the server's limit of %s (--query-timeout) and was cancelled", e.limit)
}

// tooManyRowsError is a result that does not fit one response and the
// format cannot page: 400.
type tooManyRowsError struct{ rows, limit int }

func (e *tooManyRowsError) Error() string {
	return fmt.Sprintf("the result has %d rows, more than the server's limit of %d per response (--max-rows): page it with format=jdbc and fetch_size, or add a LIMIT", e.rows, e.limit)
}

// classifyLimits maps the security and limit errors to their status.
func classifyLimits(err error) (errorBody, bool) {
	var fe *forbiddenError
	var tl *tooLargeError
	var to *timeoutError
	var tr *tooManyRowsError
	var be *busyError
	switch {
	case errors.As(err, &be):
		return errorBody{Status: http.StatusTooManyRequests, Error: errorInfo{Reason: "Too many queries", Details: err.Error(), Type: "RejectedExecutionException"}}, true
	case errors.As(err, &fe):
		return errorBody{Status: http.StatusForbidden, Error: errorInfo{Reason: "Forbidden", Details: err.Error(), Type: "SecurityException"}}, true
	case errors.As(err, &tl):
		return errorBody{Status: http.StatusRequestEntityTooLarge, Error: errorInfo{Reason: "Request too large", Details: err.Error(), Type: "IllegalArgumentException"}}, true
	case errors.As(err, &to):
		return errorBody{Status: http.StatusGatewayTimeout, Error: errorInfo{Reason: "Query timed out", Details: err.Error(), Type: "TimeoutException"}}, true
	case errors.As(err, &tr):
		return errorBody{Status: http.StatusBadRequest, Error: errorInfo{Reason: "Result too large", Details: err.Error(), Type: "IllegalArgumentException"}}, true
	}
	return errorBody{}, false
}

// pageSize is the page size for a pageable result: fetch_size, but never
// more than MaxRows (and MaxRows without one).
func (s *Server) pageSize(fetchSize int) int {
	if fetchSize <= 0 || fetchSize > s.limits.MaxRows {
		return s.limits.MaxRows
	}
	return fetchSize
}

// checkRows refuses a whole result over MaxRows for a response that
// cannot page.
func (s *Server) checkRows(n int) error {
	if n > s.limits.MaxRows {
		return &tooManyRowsError{rows: n, limit: s.limits.MaxRows}
	}
	return nil
}

// timeoutErr names the limit when ctx ran out of time, so the caller
// sees why its statement failed.
func (s *Server) timeoutErr(ctx context.Context, err error) error {
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &timeoutError{limit: s.limits.QueryTimeout}
	}
	return err
}

// deadlineWriter starts the write deadline at the response's first
// byte, not at the request's arrival, so a long statement is bounded by
// QueryTimeout and a slow reader by WriteTimeout, each on its own.
type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	limit time.Duration
	armed bool
}

func (w *deadlineWriter) arm() {
	if !w.armed {
		w.armed = true
		_ = w.rc.SetWriteDeadline(time.Now().Add(w.limit))
	}
}

func (w *deadlineWriter) WriteHeader(code int) {
	w.arm()
	w.ResponseWriter.WriteHeader(code)
}

func (w *deadlineWriter) Write(b []byte) (int, error) {
	w.arm()
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// secure wraps the routes with, in order: the body limit, authentication
// (401), a browser's anti-CSRF token (403), the route's role (403), the
// query timeout and the write deadline.
func (s *Server) secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.limits.MaxBody {
			writeError(w, &tooLargeError{limit: s.limits.MaxBody})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.limits.MaxBody)
		p := principal{name: "anonymous", role: RoleAdmin}
		if s.auth != nil {
			if publicConsoleFile(r) {
				s.servePublicConsole(w, r)
				return
			}
			var ok bool
			if p, ok = s.auth.authenticate(r); !ok {
				s.auditRefused(r, triedUser(r), http.StatusUnauthorized, errUnauthorized)
				writeUnauthorizedTo(w, r)
				return
			}
			// current_user() names the caller; without authentication
			// it is the process's user, as in Spark.
			r = r.WithContext(engine.WithUser(r.Context(), p.name))
		}
		if err := s.checkCSRF(r, p); err != nil {
			s.refuse(w, r, p, err)
			return
		}
		ctx, cancel := context.WithTimeout(withPrincipal(r.Context(), p), s.limits.QueryTimeout)
		defer cancel()
		r = r.WithContext(ctx)
		if err := s.authorize(r, s.routeRole(r)); err != nil {
			s.refuse(w, r, p, err)
			return
		}
		next.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), limit: s.limits.WriteTimeout}, r)
	})
}
