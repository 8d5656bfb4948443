package server

import (
	"context"
	"net/http"
	"sync"
	"time"

	"sluice/internal/engine"
)

// DefaultSessionIdle is how long a client's session lives after its last
// request unless Options.SessionIdle says otherwise.
const DefaultSessionIdle = 30 * time.Minute

// sessionStore holds the clients' engine sessions by id. A session
// belongs to the user that started it: another user's id, an unknown id
// and an expired one all start a new session from the server's defaults,
// under a new id, so one client never sees another's USE, SET or
// credentials. A session is dropped after idle without a request; what a
// stream started in it needs, the stream took with it when it started.
type sessionStore struct {
	start func(principal) *engine.Session // Server.newSession
	idle  time.Duration
	now   func() time.Time

	mu    sync.Mutex
	byID  map[string]*sessionEntry
	swept time.Time
}

type sessionEntry struct {
	sess *engine.Session
	role Role // the role it was started for: its data access follows it
	last time.Time
}

func newSessionStore(start func(principal) *engine.Session, idle time.Duration) *sessionStore {
	if idle <= 0 {
		idle = DefaultSessionIdle
	}
	return &sessionStore{start: start, idle: idle, now: time.Now, byID: map[string]*sessionEntry{}}
}

// get returns the session id names for p, or a new one (with its new id)
// when id is "", unknown, expired, another user's, or started before p's
// role changed (a user demoted in the users file keeps no admin session).
func (st *sessionStore) get(id string, p principal) (string, *engine.Session) {
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.now()
	st.sweepLocked(now)
	if e, ok := st.byID[id]; ok && e.sess.User() == p.name && e.role == p.role && now.Sub(e.last) < st.idle {
		e.last = now
		return id, e.sess
	}
	id = newQueryID()
	for st.byID[id] != nil {
		id = newQueryID()
	}
	sess := st.start(p)
	st.byID[id] = &sessionEntry{sess: sess, role: p.role, last: now}
	return id, sess
}

// sweepLocked drops sessions idle for longer than st.idle, at most once
// a tenth of the idle time so a busy server does not walk the map on
// every request.
func (st *sessionStore) sweepLocked(now time.Time) {
	if now.Sub(st.swept) < st.idle/10 {
		return
	}
	st.swept = now
	for id, e := range st.byID {
		if now.Sub(e.last) >= st.idle {
			delete(st.byID, id)
		}
	}
}

// len is how many sessions are open (tests, metrics).
func (st *sessionStore) len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.byID)
}

// withSession is r's context running in the session id names (a new one
// when id is "" or unknown, see sessionStore.get), and that session's id
// for the response.
func (s *Server) withSession(r *http.Request, id string) (context.Context, string) {
	p, _ := principalFrom(r.Context())
	sid, sess := s.sessions.get(id, p)
	auditSession(r.Context(), sid)
	return engine.WithSession(r.Context(), sess), sid
}

// requestSession is the context a /_plugins/_sql or _ppl request runs
// in: the session it names, or one of its own.
func (s *Server) requestSession(r *http.Request, req sqlRequest) context.Context {
	if req.SessionID == "" {
		return s.freshSession(r)
	}
	ctx, _ := s.withSession(r, req.SessionID)
	return ctx
}

// freshSession is r's context in a session of its own that no later
// request can name: /_plugins/_sql and _ppl requests without a session
// id each start from the server's defaults.
func (s *Server) freshSession(r *http.Request) context.Context {
	p, _ := principalFrom(r.Context())
	return engine.WithSession(r.Context(), s.newSession(p))
}
