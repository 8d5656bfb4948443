package server

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// NewLogger builds the server's structured logger: format "text"
// (key=value lines, the default) or "json" (one object per line), at
// level "debug", "info" (the default), "warn" or "error", written to w.
func NewLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	lv, err := ParseLogLevel(level)
	if err != nil {
		return nil, err
	}
	return NewLevelLogger(w, format, levelVar(lv))
}

// NewLevelLogger is NewLogger at the level level holds, read at each
// record, so setting it (a reload: Options.LogLevel) takes effect at once.
func NewLevelLogger(w io.Writer, format string, level *slog.LevelVar) (*slog.Logger, error) {
	ho := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(format) {
	case "", "text":
		return slog.New(slog.NewTextHandler(w, ho)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, ho)), nil
	}
	return nil, fmt.Errorf("log format %q: want text or json", format)
}

// ParseLogLevel reads "debug", "info", "warn" or "error" ("" is info).
func ParseLogLevel(level string) (slog.Level, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(strings.TrimSpace(level))); err != nil && level != "" {
		return 0, fmt.Errorf("log level %q: want debug, info, warn or error", level)
	}
	return lv, nil
}

func levelVar(l slog.Level) *slog.LevelVar {
	v := new(slog.LevelVar)
	v.Set(l)
	return v
}

// logfWriter hands each line a text handler writes to a printf-style
// function (Options.Logf, t.Logf in tests).
type logfWriter struct {
	mu   sync.Mutex
	logf func(string, ...any)
}

func (w *logfWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.logf("%s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}

func loggerFor(opts Options) *slog.Logger {
	var l *slog.Logger
	switch {
	case opts.Logger != nil:
		l = opts.Logger
	case opts.Logf != nil:
		l = slog.New(slog.NewTextHandler(&logfWriter{logf: opts.Logf}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	default:
		l = slog.Default()
	}
	// No log record may show a secret, whoever wrote it.
	return slog.New(redactingHandler{l.Handler()})
}
