package server

import (
	"context"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"time"
)

// auditReload records a reload in the audit log: event "reload", who
// asked (user and remote for POST /api/v1/reload; endpoint "SIGHUP" for
// the signal, which has no caller), what was reloaded, what needs a
// restart, the parts that failed and the outcome. A caller refused the
// reload is recorded as event "refused", like any refused request. A
// changed users file or certificate is a change of who may do what, so
// it belongs beside the statements.
func (s *Server) auditReload(user, remote, endpoint string, start time.Time, res *ReloadResult, status int) {
	if s.audit == nil {
		return
	}
	if res == nil {
		s.audit.log.LogAttrs(context.Background(), slog.LevelInfo, "refused",
			slog.String("user", user), slog.String("remote", remote), slog.String("endpoint", endpoint),
			durationMS(time.Since(start)), slog.Int("status", status), slog.String("outcome", outcome(status)))
		return
	}
	attrs := []slog.Attr{slog.String("user", user), slog.String("remote", remote), slog.String("endpoint", endpoint),
		slog.String("reloaded", strings.Join(res.Reloaded, ",")), slog.String("needs_restart", strings.Join(res.NeedsRestart, ","))}
	if len(res.Errors) > 0 {
		parts := make([]string, 0, len(res.Errors))
		for k, v := range res.Errors {
			parts = append(parts, k+": "+v)
		}
		sort.Strings(parts)
		attrs = append(attrs, slog.String("error", truncate(strings.Join(parts, "; "), 300)))
	}
	attrs = append(attrs, durationMS(time.Since(start)), slog.Int("status", status), slog.String("outcome", outcome(status)))
	s.audit.log.LogAttrs(context.Background(), slog.LevelInfo, "reload", attrs...)
}

// reloadStatus is the HTTP status a reload answers with.
func reloadStatus(res ReloadResult) int {
	if res.Err() != nil {
		return http.StatusInternalServerError
	}
	return http.StatusOK
}
