package config

import (
	"io"
	"log/slog"

	"sluice/internal/server"
)

// Reloadable is what a reload takes from c.
func (c Config) Reloadable() server.Reloadable {
	sec := c.Server.Security
	return server.Reloadable{Users: sec.Users, TLSCert: sec.TLSCert, TLSKey: sec.TLSKey, LogLevel: c.LogLevel}
}

// NeedsRestart names the settings that differ between old and new but a
// reload does not apply.
func NeedsRestart(old, new Config) []string {
	var out []string
	for _, f := range fields {
		if !f.Reloadable && f.format(&old) != f.format(&new) {
			out = append(out, f.Name())
		}
	}
	return out
}

// Reconfigure is server.Options.Reconfigure for a server started with
// c: each reload loads the settings again, in the same precedence (the
// file may have changed; the flags have not), and hands over the
// reloadable ones, naming the other settings that changed since c.
func (c Config) Reconfigure(fl *Flags, env func() []string) func() (server.Reloadable, []string, error) {
	return func() (server.Reloadable, []string, error) {
		next, err := Load(fl, env())
		if err != nil {
			return server.Reloadable{}, nil, err
		}
		return next.Reloadable(), NeedsRestart(c, next), nil
	}
}

// Logger is c's logger on w and the level it reads, which a reload sets.
func (c Config) Logger(w io.Writer) (*slog.Logger, *slog.LevelVar, error) {
	lv, err := server.ParseLogLevel(c.LogLevel)
	if err != nil {
		return nil, nil, err
	}
	level := new(slog.LevelVar)
	level.Set(lv)
	l, err := server.NewLevelLogger(w, c.LogFormat, level)
	return l, level, err
}
