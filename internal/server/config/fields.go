// Package config is `sluice serve`'s configuration: one table of settings
// (fields) from which the command-line flags, the TOML file's keys, the
// SLUICE_<SECTION>_<KEY> environment variables and --print-config are all
// derived, so a setting added to the table exists everywhere at once.
//
// Precedence, lowest first: the defaults, the file (--config), the
// environment, the flags given on the command line.
package config

import (
	"time"

	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/job"
	"sluice/internal/server"
)

// Config is the effective configuration of one `sluice serve`.
type Config struct {
	// Server is what server.Open gets; the caller adds the Logger.
	Server server.Options
	// StopTimeout is how long streams get to stop on SIGTERM.
	StopTimeout time.Duration
	// LogFormat and LogLevel build the logger (server.NewLevelLogger).
	LogFormat, LogLevel string
}

// Default is the configuration with nothing set.
func Default() Config {
	c := Config{
		Server: server.Options{
			Listen:         server.DefaultListen,
			DataDir:        registry.DataDir(connector.Env{}), // cli.DefaultDataDir's: the server imports no CLI
			QueryRetention: server.DefaultQueryRetention,
			SessionIdle:    server.DefaultSessionIdle,
			Limits: server.Limits{
				MaxBody:              server.DefaultMaxBody,
				QueryTimeout:         server.DefaultQueryTimeout,
				MaxRows:              server.DefaultMaxRows,
				MaxConcurrentQueries: server.DefaultMaxConcurrentQueries,
				MaxResultBytes:       server.DefaultMaxResultBytes,
				WriteTimeout:         server.DefaultWriteTimeout,
			},
		},
		StopTimeout: 30 * time.Second,
		LogFormat:   "text",
		LogLevel:    "info",
	}
	c.Server.Engine.RetryInitial, c.Server.Engine.RetryMax = job.DefaultRetryInitial, job.DefaultRetryMax
	return c
}

// Sections are the file's tables, in the order --print-config writes them.
var Sections = []string{"server", "streams", "log", "auth", "tls", "limits"}

// fields is the one table of settings. Reloadable ones are applied by a
// reload (SIGHUP, POST /api/v1/reload); a change to any other needs a
// restart.
var fields = []Field{
	field("server", "listen", "listen", "HTTP listen address", func(c *Config) *string { return &c.Server.Listen }),
	field("server", "data_dir", "data-dir", "data directory", func(c *Config) *string { return &c.Server.DataDir }),
	field("server", "max_concurrent_epochs", "max-concurrent-epochs", "epochs running at once (0: GOMAXPROCS)", func(c *Config) *int { return &c.Server.MaxConcurrentEpochs }),
	field("server", "stop_timeout", "stop-timeout", "how long streams get to stop on SIGTERM", func(c *Config) *time.Duration { return &c.StopTimeout }),
	field("server", "query_retention", "query-retention", "how long finished async queries are kept (negative: forever)", func(c *Config) *time.Duration { return &c.Server.QueryRetention }),
	field("server", "session_idle", "session-idle", "how long a client's session (its USE and SET) is kept after its last request", func(c *Config) *time.Duration { return &c.Server.SessionIdle }),

	field("streams", "retry_initial", "stream-retry-initial", "first retry of a stream that failed transiently; doubles each time (negative: no retries)", func(c *Config) *time.Duration { return &c.Server.Engine.RetryInitial }),
	field("streams", "retry_max", "stream-retry-max", "longest wait between a failing stream's retries", func(c *Config) *time.Duration { return &c.Server.Engine.RetryMax }),

	field("log", "format", "log-format", "log format on stderr: text or json", func(c *Config) *string { return &c.LogFormat }).check(checkLogFormat),
	field("log", "level", "log-level", "log level: debug, info, warn or error", func(c *Config) *string { return &c.LogLevel }).check(checkLogLevel).reloadable(),
	field("log", "audit_file", "audit-log", "log every API statement and refused request to this file (JSON lines, append-only, mode 0600)", func(c *Config) *string { return &c.Server.Security.AuditLog }),

	field("auth", "users", "users", "users file (default DATA_DIR/users when it exists)", func(c *Config) *string { return &c.Server.Security.Users }).reloadable(),
	field("auth", "allowed_hosts", "allowed-hosts", "Host names answered without authentication besides localhost and loopback (comma-separated, repeatable)", func(c *Config) *[]string { return &c.Server.Security.AllowedHosts }),
	field("auth", "allow_locations", "allow-location", "a path prefix or s3://bucket/prefix non-admin users may read directly (repeatable)", func(c *Config) *[]string { return &c.Server.Security.AllowLocations }),

	field("tls", "cert", "tls-cert", "TLS certificate (PEM)", func(c *Config) *string { return &c.Server.Security.TLSCert }).reloadable(),
	field("tls", "key", "tls-key", "TLS private key (PEM)", func(c *Config) *string { return &c.Server.Security.TLSKey }).reloadable(),

	field("limits", "max_body", "max-body", "largest request body in bytes", func(c *Config) *int64 { return &c.Server.Limits.MaxBody }),
	field("limits", "query_timeout", "query-timeout", "cancel a statement after this long", func(c *Config) *time.Duration { return &c.Server.Limits.QueryTimeout }),
	field("limits", "max_rows", "max-rows", "rows per response; more are paged", func(c *Config) *int { return &c.Server.Limits.MaxRows }),
	field("limits", "max_concurrent_queries", "max-concurrent-queries", "API queries running at once; more get 429", func(c *Config) *int { return &c.Server.Limits.MaxConcurrentQueries }),
	field("limits", "max_result_bytes", "max-result-bytes", "largest async query result on disk in bytes", func(c *Config) *int64 { return &c.Server.Limits.MaxResultBytes }),
	field("limits", "write_timeout", "write-timeout", "longest time writing one response may take", func(c *Config) *time.Duration { return &c.Server.Limits.WriteTimeout }),
}

// Fields is the table of settings, in --print-config's order.
func Fields() []Field { return append([]Field(nil), fields...) }

func checkLogFormat(v string) error {
	_, err := server.NewLogger(nil, v, "info")
	return err
}

func checkLogLevel(v string) error {
	_, err := server.ParseLogLevel(v)
	return err
}
