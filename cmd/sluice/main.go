// Command sluice is Sluice's command line: flags and wiring only; the
// work is in internal/cli (sql, ppl), internal/server (serve, and the
// users file passwd and token edit) and internal/backup (backup, restore).
//
//	sluice sql -e 'SELECT 1'
//	sluice sql -f examples/quickstart.sql --format json
//	sluice sql            # interactive shell
//	sluice ppl -e 'source=logs | stats count() by status'
//	sluice serve --listen 127.0.0.1:9210 --data-dir ./sluice-data
//	sluice sql --server http://127.0.0.1:9210 -e 'SHOW STREAMS'
//	sluice backup --data-dir ./sluice-data s3://bucket/backups/monday
//	sluice restore s3://bucket/backups/monday --data-dir ./restored
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

	"sluice/internal/cli"
	"sluice/internal/job"
	"sluice/internal/lockwait"
	"sluice/internal/server"
	"sluice/internal/server/config"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		if h := cli.HintOf(err); h != "" {
			fmt.Fprintln(os.Stderr, "hint:", h)
		}
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
	case "backup":
		return backupCmd(args[1:], os.Stdout)
	case "restore":
		return restoreCmd(args[1:], os.Stdout)
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
// returns nil, so the process exits 0; SIGHUP reloads (Server.Reload).
// The settings come from internal/server/config: defaults < --config
// file < SLUICE_* < flags.
func serve(args []string) error {
	// From the start: SIGHUP's default would end the process.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fl := config.Register(fs)
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
	cfg, err := config.Load(fl, os.Environ())
	if err != nil {
		return err
	}
	if fl.PrintConfig {
		return config.Print(os.Stdout, cfg)
	}
	o := cfg.Server
	o.Version = cli.VersionString()
	logger, level, err := cfg.Logger(os.Stderr)
	if err != nil {
		return fmt.Errorf("%v (see 'sluice help')", err)
	}
	o.Logger, o.LogLevel, o.Reconfigure = logger, level, cfg.Reconfigure(fl, os.Environ)
	// A wait on a lock (a local index a `sluice sql` has open) is logged
	// like the rest, not printed raw between JSON lines.
	defer lockwait.SetNotify(func(msg string) { logger.Warn(msg) })()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := server.Open(o)
	if err != nil {
		return err
	}
	go srv.ReloadOn(ctx, hup)
	serveErr := srv.ListenAndServe(ctx)
	if err := srv.Close(cfg.StopTimeout); err != nil && serveErr == nil {
		serveErr = err
	}
	return serveErr
}
