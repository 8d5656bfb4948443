// Command sluice is Sluice's command line: flags and wiring only; the
// work is in internal/cli (sql, ppl) and internal/server (serve, and the
// users file passwd and token edit).
//
//	sluice sql -e 'SELECT 1'
//	sluice sql -f examples/quickstart.sql --format json
//	sluice sql            # interactive shell
//	sluice ppl -e 'source=logs | stats count() by status'
//	sluice serve --listen 127.0.0.1:9210 --data-dir ./sluice-data
//	sluice sql --server http://127.0.0.1:9210 -e 'SHOW STREAMS'
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"sluice/internal/cli"
	"sluice/internal/job"
	"sluice/internal/lockwait"
	"sluice/internal/server"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("no command given (see 'sluice help')")
	}
	switch args[0] {
	case "version", "--version", "-version":
		cli.PrintVersion(os.Stdout)
		return nil
	case "help", "--help", "-help", "-h":
		fmt.Fprint(os.Stdout, cli.Usage)
		return nil
	case "sql", "ppl":
	case "serve":
		return serve(args[1:])
	case "passwd":
		return passwd(args[1:], os.Stdin, os.Stdout, os.Stderr)
	case "token":
		return token(args[1:], os.Stdout)
	default:
		return fmt.Errorf("unknown command %q (see 'sluice help')", args[0])
	}

	o := cli.Options{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Progress: cli.IsTerminal(os.Stderr), Lang: args[0]}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard) // one message on stderr, printed by main
	fs.StringVar(&o.Exec, "e", "", "SQL to run")
	fs.StringVar(&o.File, "f", "", "script to run")
	fs.StringVar(&o.Format, "format", "table", "table, csv, json or jsonl")
	fs.StringVar(&o.DataDir, "data-dir", cli.DefaultDataDir(), "data directory")
	fs.StringVar(&o.Server, "server", os.Getenv("SLUICE_SERVER"), "URL of a sluice serve to run the statements")
	fs.BoolVar(&o.Local, "local", false, "run here, failing if a sluice serve holds the data dir")
	fs.StringVar(&o.MemoryLimit, "memory-limit", "", "memory for each query's state (default half of RAM)")
	fs.DurationVar(&o.StopTimeout, "stop-timeout", cli.DefaultStopTimeout, "after SIGINT/SIGTERM, how long a stream's running epoch may take before it is abandoned")
	fs.DurationVar(&o.RetryInitial, "stream-retry-initial", job.DefaultRetryInitial, "first retry of a stream whose queue is unreachable; doubles each time (negative: exit with the error)")
	fs.DurationVar(&o.RetryMax, "stream-retry-max", job.DefaultRetryMax, "longest wait between those retries")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	var rc remoteFlags
	rc.register(fs)
	var err error
	if err = fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(os.Stdout, cli.Usage)
			return nil
		}
		return fmt.Errorf("%v (see 'sluice help')", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (quote SQL and pass it with -e)", fs.Arg(0))
	}

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	if err := cli.RouteServed(&o); err != nil {
		return err
	}
	if o.Server != "" {
		if o.Server, err = cli.ServerURL(o.Server, rc.caCert != ""); err != nil {
			return err
		}
		if o.Remote, err = rc.remote(); err != nil {
			return err
		}
	}
	if o.Interactive() {
		// The shell cancels one statement per Ctrl-C instead of exiting.
		return cli.Shell(context.Background(), o)
	}
	ctx, stop := cli.SignalContext(context.Background(), o.StopTimeout, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.RunSQL(ctx, o)
}

// serve runs `sluice serve` until SIGTERM or SIGINT, then stops the
// streams at their next epoch boundary (within --stop-timeout) and
// returns nil, so the process exits 0.
func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := server.Options{Version: cli.VersionString()}
	var stopTimeout time.Duration
	var logFormat, logLevel string
	fs.StringVar(&o.Listen, "listen", server.DefaultListen, "HTTP listen address")
	fs.StringVar(&o.DataDir, "data-dir", cli.DefaultDataDir(), "data directory")
	fs.IntVar(&o.MaxConcurrentEpochs, "max-concurrent-epochs", 0, "epochs running at once (0: GOMAXPROCS)")
	fs.DurationVar(&stopTimeout, "stop-timeout", 30*time.Second, "how long streams get to stop on SIGTERM")
	fs.DurationVar(&o.QueryRetention, "query-retention", server.DefaultQueryRetention, "how long finished async queries are kept (negative: forever)")
	fs.DurationVar(&o.SessionIdle, "session-idle", server.DefaultSessionIdle, "how long a client's session (its USE and SET) is kept after its last request")
	fs.DurationVar(&o.Engine.RetryInitial, "stream-retry-initial", job.DefaultRetryInitial, "first retry of a stream that failed transiently; doubles each time (negative: no retries)")
	fs.DurationVar(&o.Engine.RetryMax, "stream-retry-max", job.DefaultRetryMax, "longest wait between a failing stream's retries")
	fs.StringVar(&logFormat, "log-format", "text", "log format on stderr: text or json")
	fs.StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&o.Security.Users, "users", "", "users file (default DATA_DIR/users when it exists)")
	fs.Func("allowed-hosts", "Host names answered without authentication besides localhost and loopback (comma-separated, repeatable)", func(v string) error {
		o.Security.AllowedHosts = append(o.Security.AllowedHosts, v)
		return nil
	})
	fs.StringVar(&o.Security.AuditLog, "audit-log", "", "log every API statement and refused request to this file (JSON lines, append-only, mode 0600)")
	fs.StringVar(&o.Security.TLSCert, "tls-cert", "", "TLS certificate (PEM)")
	fs.StringVar(&o.Security.TLSKey, "tls-key", "", "TLS private key (PEM)")
	fs.Func("allow-location", "a path prefix or s3://bucket/prefix non-admin users may read directly (repeatable)", func(v string) error {
		o.Security.AllowLocations = append(o.Security.AllowLocations, v)
		return nil
	})
	fs.Int64Var(&o.Limits.MaxBody, "max-body", server.DefaultMaxBody, "largest request body in bytes")
	fs.DurationVar(&o.Limits.QueryTimeout, "query-timeout", server.DefaultQueryTimeout, "cancel a statement after this long")
	fs.IntVar(&o.Limits.MaxRows, "max-rows", server.DefaultMaxRows, "rows per response; more are paged")
	fs.IntVar(&o.Limits.MaxConcurrentQueries, "max-concurrent-queries", server.DefaultMaxConcurrentQueries, "API queries running at once; more get 429")
	fs.Int64Var(&o.Limits.MaxResultBytes, "max-result-bytes", server.DefaultMaxResultBytes, "largest async query result on disk in bytes")
	fs.DurationVar(&o.Limits.WriteTimeout, "write-timeout", server.DefaultWriteTimeout, "longest time writing one response may take")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(os.Stdout, cli.Usage)
			return nil
		}
		return fmt.Errorf("%v (see 'sluice help')", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (see 'sluice help')", fs.Arg(0))
	}
	logger, err := server.NewLogger(os.Stderr, logFormat, logLevel)
	if err != nil {
		return fmt.Errorf("%v (see 'sluice help')", err)
	}
	o.Logger = logger
	// A wait on a lock (a local index a `sluice sql` has open) is logged
	// like the rest, not printed raw between JSON lines.
	defer lockwait.SetNotify(func(msg string) { logger.Warn(msg) })()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := server.Open(o)
	if err != nil {
		return err
	}
	serveErr := srv.ListenAndServe(ctx)
	if err := srv.Close(stopTimeout); err != nil && serveErr == nil {
		serveErr = err
	}
	return serveErr
}
