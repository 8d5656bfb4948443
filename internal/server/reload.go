package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"
)

// APIReloadPath reloads the server's reloadable settings (admin only).
const APIReloadPath = "/api/v1/reload"

// Reloadable are the settings a reload applies without a restart.
type Reloadable struct {
	// Users is Security.Users ("": the data dir's users file).
	Users string
	// TLSCert and TLSKey are Security's; new handshakes get the new pair.
	TLSCert, TLSKey string
	// LogLevel is the level Options.LogLevel is set to ("": unchanged).
	LogLevel string
}

// ReloadResult is what one reload did: the parts it reloaded, the
// changed settings it did not apply (they need a restart), and the parts
// that failed, each keeping what was loaded before.
type ReloadResult struct {
	Reloaded     []string          `json:"reloaded"`
	NeedsRestart []string          `json:"needs_restart"`
	Errors       map[string]string `json:"errors,omitempty"`
}

// Err is nil when every part reloaded.
func (r ReloadResult) Err() error {
	if len(r.Errors) == 0 {
		return nil
	}
	parts := make([]string, 0, len(r.Errors))
	for k, v := range r.Errors {
		parts = append(parts, k+": "+v)
	}
	sort.Strings(parts)
	return errors.New("reload: " + strings.Join(parts, "; "))
}

// Reload re-reads the users file, the TLS certificate and key, and sets
// the log level, taking their new values from Options.Reconfigure when
// set. Streams, queries, sessions and cursors are untouched: nothing here
// reaches the engine. One reload runs at a time.
func (s *Server) Reload() ReloadResult {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	res := ReloadResult{Reloaded: []string{}, NeedsRestart: []string{}, Errors: map[string]string{}}
	fail := func(part string, err error) { res.Errors[part] = redactSecrets(err.Error()) }
	next := s.live
	if s.opts.Reconfigure != nil {
		n, restart, err := s.opts.Reconfigure()
		if err != nil {
			fail("config", err)
			s.logReload(res)
			return res
		}
		next, res.NeedsRestart = n, append(res.NeedsRestart, restart...)
		res.Reloaded = append(res.Reloaded, "config")
	}
	if restart, err := s.reloadUsers(next.Users); err != nil {
		fail("users", err)
	} else if restart != "" {
		res.NeedsRestart = append(res.NeedsRestart, restart)
	} else if s.auth != nil {
		s.live.Users = next.Users
		res.Reloaded = append(res.Reloaded, "users")
	}
	if restart, err := s.reloadTLS(next.TLSCert, next.TLSKey); err != nil {
		fail("tls", err)
	} else if restart != "" {
		res.NeedsRestart = append(res.NeedsRestart, restart)
	} else if s.cert.Load() != nil {
		s.live.TLSCert, s.live.TLSKey = next.TLSCert, next.TLSKey
		res.Reloaded = append(res.Reloaded, "tls")
	}
	if next.LogLevel != "" && s.opts.LogLevel != nil {
		if lv, err := ParseLogLevel(next.LogLevel); err != nil {
			fail("log_level", err)
		} else {
			s.opts.LogLevel.Set(lv)
			s.live.LogLevel = next.LogLevel
			res.Reloaded = append(res.Reloaded, "log_level")
		}
	}
	if len(res.Errors) == 0 {
		res.Errors = nil
	}
	s.logReload(res)
	return res
}

// reloadUsers loads the users file at path ("": the data dir's);
// restart names the setting when the change would turn authentication
// on, which a running server does not do (it may listen where only
// authenticated callers are allowed, and the other way round).
func (s *Server) reloadUsers(path string) (restart string, err error) {
	if path == "" {
		if def := DefaultUsersFile(s.opts.DataDir); fileExists(def) {
			path = def
		}
	}
	switch {
	case s.auth == nil && path != "":
		return "auth.users", nil
	case s.auth == nil:
		return "", nil
	case path == "":
		return "", errors.New("turning authentication off needs a restart")
	}
	return "", s.auth.reloadNow(path)
}

// reloadTLS loads the pair new handshakes are served; turning TLS on or
// off needs a restart (the listener and the advertised URL change).
func (s *Server) reloadTLS(certFile, keyFile string) (restart string, err error) {
	if s.opts.Security.TLSCert == "" {
		if certFile != "" {
			return "tls.cert", nil
		}
		return "", nil
	}
	if certFile == "" || keyFile == "" {
		return "", errors.New("turning TLS off needs a restart")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return "", fmt.Errorf("loading the TLS certificate: %w", err)
	}
	s.cert.Store(&cert)
	return "", nil
}

func (s *Server) logReload(res ReloadResult) {
	if len(res.NeedsRestart) > 0 {
		s.log.Warn("config change needs a restart", "keys", strings.Join(res.NeedsRestart, ","))
	}
	for part, e := range res.Errors {
		s.log.Error("reload failed; keeping what was loaded before", "part", part, "error", e)
	}
	s.log.Info("reloaded", "parts", strings.Join(res.Reloaded, ","))
}

// ReloadOn reloads at each value of sigs (SIGHUP: cmd/sluice) until ctx
// is done.
func (s *Server) ReloadOn(ctx context.Context, sigs <-chan os.Signal) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-sigs:
			t0 := time.Now()
			res := s.Reload()
			s.auditReload("", "", "SIGHUP", t0, &res, reloadStatus(res))
		}
	}
}

// reloadRoutes registers POST /api/v1/reload on s.mux directly: admin's.
func (s *Server) reloadRoutes() {
	s.mux.HandleFunc("POST "+APIReloadPath, s.handleReload)
}

func (s *Server) handleReload(w http.ResponseWriter, r *http.Request) {
	t0, user, endpoint := time.Now(), s.auditUser(r.Context()), r.Method+" "+r.URL.Path
	if err := s.authorize(r, RoleAdmin); err != nil {
		aw := &auditWriter{ResponseWriter: w, e: &auditEntry{}}
		writeError(aw, err)
		s.auditReload(user, r.RemoteAddr, endpoint, t0, nil, aw.status())
		return
	}
	res := s.Reload()
	status := reloadStatus(res)
	s.auditReload(user, r.RemoteAddr, endpoint, t0, &res, status)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = writeJSON(w, res, false)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
