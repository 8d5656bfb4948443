package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// principal is who made a request, as the authentication middleware
// found it. With authentication off every request is the anonymous
// admin.
type principal struct {
	name string
	role Role
}

type principalKey struct{}

func withPrincipal(ctx context.Context, p principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

func principalFrom(ctx context.Context) (principal, bool) {
	p, ok := ctx.Value(principalKey{}).(principal)
	return p, ok
}

// forbiddenError is an authenticated caller without the role a request
// needs: 403.
type forbiddenError struct{ msg string }

func (e *forbiddenError) Error() string { return e.msg }

var _ usererr.UserError = (*forbiddenError)(nil)

func (e *forbiddenError) UserErrorKind() usererr.Kind { return usererr.Forbidden }

// authorize checks that the caller of r holds role need (admin holds
// every role). Every handler that does something a read user must not
// calls it, or authorizeStatement, before doing it; the middleware has
// already refused routes not registered with readRoute to non-admins.
func (s *Server) authorize(r *http.Request, need Role) error {
	return s.authorizeCtx(r.Context(), need, "this request")
}

// authorizeStatement checks that the caller in ctx may run st: read for
// sql.ReadOnly statements, write for sql.WritesData ones, admin for every
// other. s.execute calls it, so any endpoint that runs statements through
// s.execute is covered; one that runs them in the background must keep
// the request's values in its context (context.WithoutCancel(r.Context())),
// or it is refused. Which files and locations a statement may name is the
// engine's check, in the caller's session (access.go).
func (s *Server) authorizeStatement(ctx context.Context, st sql.Statement) error {
	need := RoleAdmin
	switch {
	case sql.ReadOnly(st):
		need = RoleRead
	case sql.WritesData(st):
		need = RoleWrite
	}
	return s.authorizeCtx(ctx, need, "this statement")
}

func (s *Server) authorizeCtx(ctx context.Context, need Role, what string) error {
	if s.auth == nil {
		return nil
	}
	p, ok := principalFrom(ctx)
	if !ok {
		return &forbiddenError{msg: what + " runs outside an authenticated request"}
	}
	if p.role < need {
		return &forbiddenError{msg: fmt.Sprintf("%s %s has role %s; %s needs role %s", principalKind(p), p.name, p.role, what, need)}
	}
	return nil
}

func principalKind(p principal) string {
	if strings.HasPrefix(p.name, "token:") {
		return "token"
	}
	return "user"
}

// readRoute registers h for pattern and lets read users reach it (the
// middleware sends a 403 to callers below a route's role, admin for
// routes registered otherwise). h must still authorize what it does
// beyond reading.
func (s *Server) readRoute(pattern string, h http.HandlerFunc) {
	s.roleRoute(pattern, RoleRead, h)
}

// writeRoute is readRoute for write users: h runs statements that
// authorizeStatement checks one by one (starting a stream is write's,
// refreshing a view admin's).
func (s *Server) writeRoute(pattern string, h http.HandlerFunc) {
	s.roleRoute(pattern, RoleWrite, h)
}

func (s *Server) roleRoute(pattern string, role Role, h http.HandlerFunc) {
	if s.routeRoles == nil {
		s.routeRoles = map[string]Role{}
	}
	s.routeRoles[pattern] = role
	s.mux.HandleFunc(pattern, h)
}

// routeRole is the role the middleware asks for before r reaches its
// handler: the one readRoute or writeRoute gave its pattern, admin for
// every other route (endpoints nobody classified are admin's: the safe
// default). A request no route matches gets read, so it can have its 404
// or 405.
func (s *Server) routeRole(r *http.Request) Role {
	_, pattern := s.mux.Handler(r)
	if pattern == "" {
		return RoleRead
	}
	if role, ok := s.routeRoles[pattern]; ok {
		return role
	}
	return RoleAdmin
}

// authenticator checks basic-auth passwords and bearer tokens against the
// users file, reloading it when it changes on disk (so `sluice passwd`
// and `sluice token create` take effect without a restart).
type authenticator struct {
	path string
	logf func(string, ...any)

	mu      sync.Mutex
	users   *Users
	modTime time.Time
	size    int64
	dummy   []byte            // a bcrypt hash to compare unknown users against
	ok      map[string][]byte // user → sha256(password, hash) of its last good password
}

func newAuthenticator(path string, logf func(string, ...any)) (*authenticator, error) {
	a := &authenticator{path: path, logf: logf}
	if err := a.reload(); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *authenticator) reload() error {
	fi, err := os.Stat(a.path)
	if err != nil {
		return fmt.Errorf("users file: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		a.logf("warning: users file %s is readable by others (mode %o); chmod 600 it", a.path, fi.Mode().Perm())
	}
	u, err := LoadUsers(a.path)
	if err != nil {
		return err
	}
	cost := bcrypt.DefaultCost
	if len(u.Users) > 0 {
		if c, err := bcrypt.Cost([]byte(u.Users[0].Bcrypt)); err == nil {
			cost = c
		}
	}
	dummy, err := bcrypt.GenerateFromPassword([]byte("no such user"), cost)
	if err != nil {
		return fmt.Errorf("users file: %w", err)
	}
	a.users, a.modTime, a.size, a.dummy, a.ok = u, fi.ModTime(), fi.Size(), dummy, map[string][]byte{}
	return nil
}

// reloadNow re-reads the users file, now at path: a file that fails to
// load keeps the users (and the path) loaded before.
func (a *authenticator) reloadNow(path string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.path
	a.path = path
	if err := a.reload(); err != nil {
		a.path = old
		return err
	}
	return nil
}

// current returns the users, reloaded first if the file changed; a file
// that fails to load keeps the last good one (and is logged).
func (a *authenticator) current() (*Users, []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if fi, err := os.Stat(a.path); err == nil && (!fi.ModTime().Equal(a.modTime) || fi.Size() != a.size) {
		if err := a.reload(); err != nil {
			a.logf("keeping the users loaded before: %v", err)
		}
	}
	return a.users, a.dummy
}

// authenticate returns the caller of r; ok is false for no, malformed or
// wrong credentials alike, so a response never tells which (no user
// enumeration).
func (a *authenticator) authenticate(r *http.Request) (principal, bool) {
	h := r.Header.Get("Authorization")
	scheme, cred, _ := strings.Cut(h, " ")
	switch strings.ToLower(scheme) {
	case "bearer":
		return a.checkToken(strings.TrimSpace(cred))
	case "basic":
		name, pass, ok := r.BasicAuth()
		if !ok {
			return principal{}, false
		}
		return a.checkPassword(name, pass)
	}
	return principal{}, false
}

// checkToken compares the token's hash with every stored one in constant
// time, without stopping at a match.
func (a *authenticator) checkToken(tok string) (principal, bool) {
	users, _ := a.current()
	sum := []byte(tokenHash(tok))
	var found *TokenEntry
	for i := range users.Tokens {
		if subtle.ConstantTimeCompare(sum, []byte(users.Tokens[i].SHA256)) == 1 {
			found = &users.Tokens[i]
		}
	}
	if found == nil || !strings.HasPrefix(tok, tokenPrefix) {
		return principal{}, false
	}
	role, _ := ParseRole(found.Role)
	return principal{name: "token:" + found.Name, role: role}, true
}

// checkPassword runs bcrypt for a known user and an unknown one alike,
// so the time taken does not tell them apart. A user's last good
// password is remembered (as a hash with its bcrypt hash) so clients
// that send it with every request pay bcrypt once.
func (a *authenticator) checkPassword(name, pass string) (principal, bool) {
	users, dummy := a.current()
	var found *UserEntry
	for i := range users.Users {
		if subtle.ConstantTimeCompare([]byte(users.Users[i].Name), []byte(name)) == 1 {
			found = &users.Users[i]
		}
	}
	if found == nil {
		_ = bcrypt.CompareHashAndPassword(dummy, []byte(pass))
		return principal{}, false
	}
	role, _ := ParseRole(found.Role)
	p := principal{name: found.Name, role: role}
	memo := sha256.Sum256([]byte(found.Bcrypt + "\x00" + pass))
	a.mu.Lock()
	last := a.ok[found.Name]
	a.mu.Unlock()
	if last != nil && subtle.ConstantTimeCompare(last, memo[:]) == 1 {
		return p, true
	}
	if bcrypt.CompareHashAndPassword([]byte(found.Bcrypt), []byte(pass)) != nil {
		return principal{}, false
	}
	a.mu.Lock()
	if a.ok != nil {
		a.ok[found.Name] = memo[:]
	}
	a.mu.Unlock()
	return p, true
}

// errUnauthorized is the one answer to every failed authentication.
var errUnauthorized = errors.New("authentication required: a valid user and password (basic) or API token (bearer)")

func writeUnauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Basic realm="sluice", charset="UTF-8"`)
	writeUnauthorizedBody(w)
}

// writeUnauthorizedTo is writeUnauthorized, without the challenge for
// the console's own requests (consoleHeader): it signs in by itself.
func writeUnauthorizedTo(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get(consoleHeader) != "" {
		writeUnauthorizedBody(w)
		return
	}
	writeUnauthorized(w)
}

func writeUnauthorizedBody(w http.ResponseWriter) {
	body := errorBody{Status: http.StatusUnauthorized, Error: errorInfo{Reason: "Unauthorized", Details: errUnauthorized.Error(), Type: "SecurityException"}}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(http.StatusUnauthorized)
	_ = writeJSON(w, body, false)
}

// openAuth loads the users file of opts: Security.Users, or the data
// dir's users file when that exists; nil (authentication off) when there
// is neither.
func openAuth(opts Options, logf func(string, ...any)) (*authenticator, error) {
	path := opts.Security.Users
	if path == "" {
		def := DefaultUsersFile(opts.DataDir)
		if _, err := os.Stat(def); err != nil {
			return nil, nil
		}
		path = def
	}
	a, err := newAuthenticator(path, logf)
	if err != nil {
		return nil, err
	}
	if len(a.users.Users)+len(a.users.Tokens) == 0 {
		logf("warning: users file %s has no users or tokens: every request will be refused", path)
	}
	return a, nil
}

// authNote is the listening line's word on authentication.
func (s *Server) authNote() string {
	if s.auth == nil {
		return ", no authentication"
	}
	return ", users " + s.auth.path
}
