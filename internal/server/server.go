// Package server is `sluice serve`: one long-running process over a data
// dir that runs every stream and auto-refreshing materialized view in the
// background (Scheduler) and answers SQL over HTTP with the OpenSearch
// SQL plugin's REST API (/_plugins/_sql), so the plugin's clients work
// against it, plus /api/v1 endpoints of Sluice's own.
//
//	srv, _ := server.Open(server.Options{DataDir: "sluice-data"})
//	defer srv.Close(10 * time.Second)
//	_ = srv.ListenAndServe(ctx) // until ctx is cancelled
//
// # Layout
//
// Scheduler (scheduler.go) is the engine's Background: one epoch semaphore
// for all streams. Each endpoint family has a file: sql.go
// (/_plugins/_sql), ppl.go, explain.go, cluster.go, api.go
// (/api/v1/statement), async.go with async_store.go (async queries and
// their on-disk store), streams_api.go (/api/v1/streams, /api/v1/tables),
// metrics.go, console.go; each registers its routes in a xxxRoutes method
// that routes (server.go) calls. Response formats have a file each
// (format_*.go); cursor.go holds paging cursors; logging.go the slog
// logger; sessions.go the clients' engine.Sessions, keyed by the sessionId
// their requests carry; reload.go re-reads the users file, the TLS pair
// and the log level (SIGHUP, POST /api/v1/reload) without touching the
// engine. The settings themselves (flags, --config file, SLUICE_*
// variables) are internal/server/config's one table.
//
// # Security
//
// secure (limits.go) wraps every route: body limit, authentication against
// the users file (auth.go, users.go), the route's role (readRoute marks a
// route readable, every route registered on s.mux directly is admin's),
// query timeout, write deadline. s.execute and async submits authorize each
// parsed statement (sql.ReadOnly). TLS is tls.go; redactSecrets (redact.go)
// cleans errors and log lines; http.CrossOriginProtection wraps everything
// so a browser's stored basic-auth credentials cannot be used cross-site.
// audit.go is the audit log (Security.AuditLog): limitQueries (and the
// other routes that run statements) wrap their handler in audited, and
// secure and checkHost log the requests they refuse.
//
// # Console, metrics, history
//
// The web console (console.go) is static files in console/, embedded with
// go:embed (uPlot vendored under console/vendor/uplot), served at /console/
// (to anyone: its sign-in page holds no data; publicConsoleFile); a
// browser's GET / is redirected there (wantsHTML), and the page calls the
// same JSON API as any client, with the credentials it signed in with. Metrics hear each epoch
// through the engine's StreamProgress and read gauges from engine.Streams
// (a shared stream's slot, queue and partition numbers: the ones behind
// DESCRIBE STREAM's rows). history (history.go) samples every stream the
// process has run (engine.LocalStreams, from memory) every
// Options.HistoryInterval into a one-hour ring per stream, with its last
// epochs by phase (history_epochs.go), read by
// GET /api/v1/streams/{name}/history and saved in the data dir
// (history_file.go) so the charts survive a restart. A stream's plan and
// dead letters are streams_detail.go's.
//
// # Cursors
//
// A jdbc SELECT over /_plugins/_sql, and a SELECT over /api/v1/statement,
// runs through engine.OpenRows: the query runs in its own goroutine,
// detached from the request, and blocks once two batches wait unread; the
// cursor (cursor.go) holds that reader and one batch read ahead and reads
// each page on demand. Closing, finishing or expiring the cursor (idle 5
// minutes, swept every 30 s) cancels the query. Other statements and the
// non-paging formats materialize their result.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"sluice/internal/engine"
	"sluice/internal/served"
	"sluice/internal/sql"
	"sluice/internal/stream"
)

// DefaultListen is where `sluice serve` listens unless told otherwise: a
// loopback port next to OpenSearch's 9200.
const DefaultListen = "127.0.0.1:9210"

// Options configure a Server.
type Options struct {
	// DataDir is the engine's data dir; one server at a time may use it.
	DataDir string
	// Listen is the address ListenAndServe binds (DefaultListen if empty).
	Listen string
	// MaxConcurrentEpochs bounds the epochs running at once across every
	// stream (0: GOMAXPROCS).
	MaxConcurrentEpochs int
	// Logger receives the server's structured logs; nil is Logf's, else
	// slog.Default().
	Logger *slog.Logger
	// Logf, when Logger is nil, receives the log lines as text (tests).
	Logf func(format string, args ...any)
	// QueryRetention is how long a finished async query's status and
	// result are kept (0: DefaultQueryRetention; negative: forever).
	QueryRetention time.Duration
	// Security turns on authentication and TLS (auth.go, tls.go).
	Security Security
	// Limits bound each request (limits.go); zero fields get defaults.
	Limits Limits
	// SessionIdle is how long a client's session (its USE and SET) is
	// kept after its last request (0: DefaultSessionIdle).
	SessionIdle time.Duration
	// HistoryInterval is how often each stream is sampled for the
	// console's charts (0: DefaultHistoryInterval); the samples of the
	// last HistoryWindow are kept (and saved in console-history.json).
	HistoryInterval time.Duration
	// Engine is passed to engine.Open (DataDir, Background and EpochSlots
	// are the server's to set).
	Engine engine.Options
	// LogLevel, when set, is the level Logger's handler reads
	// (NewLevelLogger): a reload sets it.
	LogLevel *slog.LevelVar
	// Reconfigure, when set, gives each reload (SIGHUP, POST
	// /api/v1/reload) the reloadable settings' new values, and the
	// changed settings it cannot apply (cmd/sluice reads its config file
	// again); nil re-reads the files the server started with.
	Reconfigure func() (Reloadable, []string, error)
	// Version is the build's version GET / reports as sluice_version
	// ("dev" if empty); cmd/sluice passes cli.Version, so the server
	// does not import the CLI.
	Version string
}

// Server is one `sluice serve` process's state: the data dir's lock, the
// engine, the stream scheduler and the open cursors.
type Server struct {
	opts    Options
	lock    *dataDirLock
	eng     *engine.Engine
	sched   *Scheduler
	cursors *cursorStore
	mux     *http.ServeMux
	log     *slog.Logger
	metrics *metrics
	async   *asyncQueries
	history *history
	// priority puts API queries behind running epochs (query_priority.go).
	priority *priorityGate
	// sessions are the clients' sessions, by the id their requests carry.
	sessions *sessionStore
	// consoleFiles serves the console's page and files (console.go).
	consoleFiles http.HandlerFunc
	// stopHistory ends the history sampler; Close calls it.
	stopHistory context.CancelFunc
	// logf is log lines as text, redacted, for the security code.
	logf func(string, ...any)

	auth       *authenticator   // nil: authentication off
	allowed    engine.Locations // Security.AllowLocations (access.go)
	limits     Limits
	queries    querySlots      // API queries running (query_slots.go)
	routeRoles map[string]Role // routes callers below admin may reach (readRoute, writeRoute)
	handler    http.Handler    // mux behind the security middleware
	servedHost servedAddr      // the host Serve listens on (host.go)
	csrfKey    []byte          // signs the console's anti-CSRF tokens (csrf.go)
	audit      *auditLog       // Security.AuditLog; nil: none (audit.go)

	reloadMu sync.Mutex                      // one reload at a time (reload.go)
	live     Reloadable                      // the reloadable settings in effect
	cert     atomic.Pointer[tls.Certificate] // served to new handshakes; nil: no TLS
}

// Open locks the data dir (failing with ErrDataDirInUse when another
// server has it), opens the engine and resumes every stream the catalog
// records as running. A stream that cannot resume is logged; the server
// still starts.
func Open(opts Options) (*Server, error) {
	if opts.DataDir == "" {
		return nil, errors.New("server: a data dir is required")
	}
	if opts.Listen == "" {
		opts.Listen = DefaultListen
	}
	log := loggerFor(opts)
	logf := redactingLogf(func(format string, args ...any) { log.Info(fmt.Sprintf(format, args...)) })
	auth, err := openAuth(opts, logf)
	if err != nil {
		return nil, err
	}
	allowed, err := engine.ParseLocations(opts.Security.AllowLocations)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	lock, err := lockDataDir(opts.DataDir, fmt.Sprintf("sluice serve pid %d on %s", os.Getpid(), host))
	if err != nil {
		return nil, err
	}
	var audit *auditLog
	if opts.Security.AuditLog != "" {
		if audit, err = openAuditLog(opts.Security.AuditLog, logf); err != nil {
			lock.release()
			return nil, err
		}
	}
	sched := NewScheduler(opts.MaxConcurrentEpochs, log)
	s := &Server{opts: opts, lock: lock, sched: sched, cursors: newCursorStore(), log: log, logf: logf, auth: auth, allowed: allowed,
		limits: opts.Limits.withDefaults(), history: newHistory(opts.HistoryInterval), audit: audit}
	s.live = Reloadable{Users: opts.Security.Users, TLSCert: opts.Security.TLSCert, TLSKey: opts.Security.TLSKey}
	s.queries = newQuerySlots(s.limits.MaxConcurrentQueries)
	s.priority = newPriorityGate(sched.Slots())
	s.csrfKey = newCSRFKey()
	s.metrics = newMetrics(func() *engine.Engine { return s.eng }, func() map[string]int {
		if s.async == nil {
			return nil
		}
		return s.async.store.counts()
	})
	eo := opts.Engine
	eo.DataDir, eo.Background, eo.EpochSlots = opts.DataDir, sched, sched.Slots()
	eo.StreamProgress = s.progress(eo.StreamProgress)
	eng, err := engine.Open(eo)
	if err != nil {
		_ = audit.Close()
		lock.release()
		return nil, err
	}
	s.eng = eng
	s.sessions = newSessionStore(s.newSession, opts.SessionIdle)
	hctx, stopHistory := context.WithCancel(context.Background())
	s.stopHistory = stopHistory
	if err := s.history.load(historyPath(opts.DataDir), time.Now()); err != nil {
		logf("warning: the console's charts start empty: %v", err)
	}
	go s.history.run(hctx, eng, historyPath(opts.DataDir), logf)
	s.routes()
	// Browsers hold the console's basic-auth credentials, so a page of
	// another site must not make them POST here (CSRF); clients that are
	// not browsers send no Origin or Sec-Fetch-Site and pass.
	s.handler = s.probes(s.checkHost(http.NewCrossOriginProtection().Handler(s.secure(s.mux))))
	started, err := eng.Resume(context.Background())
	for _, n := range started {
		log.Info("resumed stream", "stream", n)
	}
	if err != nil {
		log.Error("resuming streams", "error", err.Error())
	}
	retention := opts.QueryRetention
	if retention == 0 {
		retention = DefaultQueryRetention
	}
	if err := s.startAsync(retention); err != nil {
		_ = s.Close(10 * time.Second)
		return nil, err
	}
	return s, nil
}

// Engine is the server's engine.
func (s *Server) Engine() *engine.Engine { return s.eng }

// Handler serves every endpoint.
func (s *Server) Handler() http.Handler { return s.handler }

// ListenAndServe listens on Options.Listen and serves until ctx is
// cancelled, then stops accepting requests (Close stops the streams).
func (s *Server) ListenAndServe(ctx context.Context) error {
	if err := s.checkListenAddr(s.opts.Listen); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", s.opts.Listen)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", s.opts.Listen, err)
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx is cancelled.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if err := s.checkListen(ln.Addr()); err != nil {
		ln.Close()
		return err
	}
	hs, err := s.httpServer(s.handler)
	if err != nil {
		ln.Close()
		return err
	}
	s.servedHost.Store(listenHost(ln.Addr().String()))
	base := s.scheme() + "://" + ln.Addr().String()
	s.log.Info("listening on "+base, "console", base+ConsolePath, "data_dir", s.opts.DataDir, "auth", s.authNote())
	if err := s.lock.advertise(served.DialURL(s.scheme(), ln.Addr())); err != nil {
		s.log.Warn("a sluice sql on this data dir will not find this server", "error", err.Error())
	}
	defer s.lock.unadvertise()
	errc := make(chan error, 1)
	go func() { errc <- serveOn(hs, ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		_ = hs.Close()
	}
	return nil
}

// Close stops every stream at its next epoch boundary, waiting up to
// deadline, then closes the engine and releases the data dir. An epoch
// still running at the deadline is abandoned uncommitted: the next start
// replays it, so nothing is lost or duplicated.
func (s *Server) Close(deadline time.Duration) error {
	s.stopHistory()
	s.stopAsync()
	if !s.sched.Stop(deadline) {
		s.log.Warn("stop deadline passed; unfinished epochs replay on the next start", "deadline", deadline.String())
	}
	s.cursors.closeAll()
	if err := s.history.save(historyPath(s.opts.DataDir)); err != nil {
		s.log.Warn("saving the console history", "error", err.Error())
	}
	err := s.eng.Close()
	// After stopAsync, so the async queries' ends are in it.
	if aerr := s.audit.Close(); err == nil {
		err = aerr
	}
	if lerr := s.lock.release(); err == nil {
		err = lerr
	}
	return err
}

// execute parses and runs one statement.
func (s *Server) execute(ctx context.Context, text string) (*engine.Result, error) {
	return s.executeWith(ctx, text, sql.ParseOne)
}

// executeWith is execute with the parser of the request's language
// (sql.ParseOne, or ppl.Statement for /_plugins/_ppl).
func (s *Server) executeWith(ctx context.Context, text string, parse func(string) (sql.Statement, error)) (*engine.Result, error) {
	st, err := s.parseAuthorized(ctx, text, parse)
	if err != nil {
		return nil, err
	}
	res, err := s.eng.ExecuteStatement(ctx, st)
	auditResult(ctx, res)
	return res, s.timeoutErr(ctx, err)
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	s.sqlRoutes()
	s.pplRoutes()
	s.clusterRoutes()
	s.apiRoutes()
	s.asyncRoutes()
	s.streamAPIRoutes()
	s.streamDetailRoutes()
	s.metricsRoutes()
	s.consoleRoutes()
	s.reloadRoutes()
	s.backupRoutes()
}

// progress is the engine's StreamProgress: metrics and one log record per
// committed epoch, then next (the caller's own), when set.
func (s *Server) progress(next func(stream.Progress)) func(stream.Progress) {
	return func(p stream.Progress) {
		s.metrics.observe(p)
		s.history.observe(p)
		attrs := []any{"stream", p.Name, "epoch", p.Epoch, "files", p.Files, "bytes", p.Bytes,
			"rows_in", p.RowsIn, "rows_out", p.RowsOut, "duration", p.Duration.Round(time.Microsecond).String()}
		if p.Replayed {
			attrs = append(attrs, "replayed", true)
		}
		if p.LateRows > 0 {
			attrs = append(attrs, "late_rows", p.LateRows)
		}
		if p.BadRows > 0 {
			attrs = append(attrs, "bad_rows", p.BadRows)
		}
		if p.ReconciledFiles > 0 {
			attrs = append(attrs, "reconciled_files", p.ReconciledFiles)
		}
		if p.LagFiles > 0 {
			attrs = append(attrs, "lag_files", p.LagFiles, "lag_bytes", p.LagBytes)
		}
		s.log.Info("epoch committed", attrs...)
		if next != nil {
			next(p)
		}
	}
}
