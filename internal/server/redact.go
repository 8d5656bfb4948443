package server

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"

	"sluice/internal/sql"
)

// Errors may quote what a caller wrote or what a connector was given: an
// OPTIONS list, a URL. Everything the server sends or logs goes through
// redactSecrets first; over-redacting is the safe mistake.
var (
	// scheme://user:password@host → scheme://user:***@host
	urlUserinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@'"]*):[^@/\s'"]*@`)
	// the same, percent-encoded into a path: /user%3Apassword%40bucket
	escapedUserinfo = regexp.MustCompile(`(?i)(/[^/\s%:@'"]*)%3A[^/\s'"]*?%40`)
	// key = 'value', key 'value', "key": "value", key=value; a quote in
	// a value is \' (Spark) or '' (older text).
	keyValue = regexp.MustCompile(`(?i)([a-z0-9_.\-]*(?:password|passwd|secret|token|credential|access_key|accesskey|api_key|apikey|private_key|auth)[a-z0-9_.\-]*["']?)(\s*[:=]\s*|\s+)('(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*"|[^\s,)'"]+)`)
)

// RedactSecrets is s with the credentials it may quote replaced by ***,
// as the server's errors and logs show them (serve --print-config).
func RedactSecrets(s string) string { return redactSecrets(s) }

func redactSecrets(s string) string {
	s = urlUserinfo.ReplaceAllString(s, "$1:***@")
	s = escapedUserinfo.ReplaceAllString(s, "$1%3A***%40")
	return keyValue.ReplaceAllStringFunc(s, func(m string) string {
		sub := keyValue.FindStringSubmatch(m)
		key, sep, val := sub[1], sub[2], sub[3]
		quoted := val[0] == '\'' || val[0] == '"'
		if !sql.IsSecretKey(key) || (!quoted && !strings.ContainsAny(sep, ":=")) {
			return m // "column passwords not found" names no secret
		}
		if quoted {
			return key + sep + val[:1] + "***" + val[:1]
		}
		return key + sep + "***"
	})
}

// redactingLogf wraps logf so no log line shows a secret.
func redactingLogf(logf func(string, ...any)) func(string, ...any) {
	return func(format string, args ...any) {
		logf("%s", redactSecrets(fmt.Sprintf(format, args...)))
	}
}

// redactingHandler is a slog.Handler that passes every message and
// string attribute through redactSecrets before the real handler.
type redactingHandler struct{ h slog.Handler }

func (r redactingHandler) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r redactingHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, redactSecrets(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func (r redactingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = redactAttr(a)
	}
	return redactingHandler{r.h.WithAttrs(red)}
}

func (r redactingHandler) WithGroup(name string) slog.Handler {
	return redactingHandler{r.h.WithGroup(name)}
}

func redactAttr(a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindString:
		return slog.String(a.Key, redactSecrets(a.Value.String()))
	case slog.KindAny:
		if err, ok := a.Value.Any().(error); ok {
			return slog.String(a.Key, redactSecrets(err.Error()))
		}
	}
	return a
}
