package engine

import (
	"context"
	"strings"
	"sync"

	"sluice/internal/catalog"
	"sluice/internal/engine/access"
	"sluice/internal/sql"
)

// Session is one client's state on a shared Engine: the database USE
// chose, the SET settings (s3.* credentials among them) and the user it
// runs for. Two sessions never see each other's USE or SET: the engine
// reads both from the session its statement runs in, never from itself.
//
// The CLI process has one session (Engine.Execute runs in it); sluice
// serve gives each client its own, keyed by the session id its requests
// carry. A stream started in a session takes a copy of it when it starts
// (see launch), so it runs on with the settings it started with after the
// session changes or expires.
//
//	s := eng.NewSession("alice")
//	s.Execute(ctx, "USE web; SET s3.region = 'eu-west-1'")
//	s.Execute(ctx, "SELECT count(*) FROM logs") // web.logs, in eu-west-1
//
// A Session is safe for concurrent use; its statements may run at once.
type Session struct {
	eng  *Engine
	user string

	mu       sync.Mutex
	db       string // USE's database; "" is default
	settings map[string]string
	access   *access.Rule // nil: unrestricted (RestrictData)
	// views are the session's temporary views, by lower-cased name.
	views map[string]*viewDef
}

// NewSession starts a session for user ("" when there is no
// authentication) from the engine's defaults: the default database and
// no settings.
func (e *Engine) NewSession(user string) *Session {
	return &Session{eng: e, user: user, settings: map[string]string{}}
}

// User is who the session runs for.
func (s *Session) User() string { return s.user }

// Database is the session's current database.
func (s *Session) Database() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == "" {
		return catalog.DefaultDatabase
	}
	return s.db
}

// Execute runs a script in the session (Engine.Execute).
func (s *Session) Execute(ctx context.Context, script string) ([]*Result, error) {
	return s.eng.Execute(WithSession(ctx, s), script)
}

// ExecuteStatement runs one parsed statement in the session.
func (s *Session) ExecuteStatement(ctx context.Context, st sql.Statement) (*Result, error) {
	return s.eng.ExecuteStatement(WithSession(ctx, s), st)
}

// OpenRows is Engine.OpenRows in the session.
func (s *Session) OpenRows(ctx context.Context, st sql.Statement, buffer int) (*Rows, bool, error) {
	return s.eng.OpenRows(WithSession(ctx, s), st, buffer)
}

type sessionKey struct{}

// WithSession makes the engine calls under ctx run in s: how a server
// hands one request's session to every call it makes (Execute,
// ExecuteStatement, OpenRows, Submit).
func WithSession(ctx context.Context, s *Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// session is the session ctx runs in: its own, or the engine's (the
// CLI's) when it carries none.
func (e *Engine) session(ctx context.Context) *Session {
	if s, ok := ctx.Value(sessionKey{}).(*Session); ok && s != nil && s.eng == e {
		return s
	}
	return e.def
}

// detached is a copy of s that later USE and SET in s do not reach: what
// a stream keeps of the session it started in.
func (s *Session) detached() *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &Session{eng: s.eng, user: s.user, db: s.db, settings: make(map[string]string, len(s.settings)), access: s.access}
	for k, v := range s.settings {
		c.settings[k] = v
	}
	if len(s.views) > 0 {
		c.views = make(map[string]*viewDef, len(s.views))
		for k, v := range s.views {
			c.views[k] = v
		}
	}
	return c
}

// use makes db the current database.
func (s *Session) use(db string) {
	s.mu.Lock()
	s.db = db
	s.mu.Unlock()
}

// forgetDatabase falls back to the default database when db, just
// dropped, was the current one.
func (s *Session) forgetDatabase(db string) {
	s.mu.Lock()
	if strings.EqualFold(s.db, db) {
		s.db = ""
	}
	s.mu.Unlock()
}

// set records SET key = value; reset forgets it.
func (s *Session) set(key, value string) {
	s.mu.Lock()
	s.settings[strings.ToLower(key)] = value
	s.mu.Unlock()
}

func (s *Session) reset(key string) {
	s.mu.Lock()
	delete(s.settings, strings.ToLower(key))
	s.mu.Unlock()
}

// setting is one SET value.
func (s *Session) setting(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.settings[key]
	return v, ok
}

// settingsCopy is every SET value, for a connector's Env.
func (s *Session) settingsCopy() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.settings))
	for k, v := range s.settings {
		out[k] = v
	}
	return out
}
