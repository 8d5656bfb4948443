package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mattn/go-isatty"

	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/engine"
	"sluice/internal/exec"
	"sluice/internal/sql"
	"sluice/internal/stream"
)

// Options is what `sluice sql` was asked to do.
type Options struct {
	DataDir string // the engine's data directory
	Format  string // table, csv, json or jsonl
	Exec    string // -e: SQL text to run
	File    string // -f: a script to run; "-" is stdin
	// Server, when set, is the URL of a `sluice serve` that runs the
	// statements instead of an in-process engine over DataDir.
	Server string
	// StopTimeout: after the first SIGINT/SIGTERM, how long a stream's
	// running epoch may take before it is abandoned (0: no limit; a second
	// signal abandons it at once). See SignalContext.
	StopTimeout time.Duration
	// RetryInitial and RetryMax: the backoff of a stream whose queue is
	// unreachable (engine.Options; 0 is the engine's default, a negative
	// RetryInitial exits with the error instead).
	RetryInitial, RetryMax time.Duration
	// Remote, when set, is the client configuration for Server
	// (credentials, TLS); its URL is Server's.
	Remote *Remote
	// Local (--local) refuses a data dir a `sluice serve` holds instead
	// of sending the statements there (RouteServed).
	Local bool

	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Progress draws a progress bar on Stderr; set it only when Stderr is
	// a terminal.
	Progress bool
	// MemoryLimit is --memory-limit: '256MB', '2GB', 'none'; "" is half of
	// physical memory (or of the cgroup's limit).
	MemoryLimit string
	// Lang is the language of -e, -f and stdin: LangSQL ("" too) or
	// LangPPL (`sluice ppl`); the shell starts in it.
	Lang string
}

// The languages of Options.Lang.
const (
	LangSQL = "sql"
	LangPPL = "ppl"
)

// DefaultDataDir is $SLUICE_DATA_DIR, else ./sluice-data: the registry's
// rule, the one place the variable is read.
func DefaultDataDir() string { return registry.DataDir(connector.Env{}) }

// IsTerminal reports whether f is a terminal (or a Cygwin/MSYS pty).
func IsTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// Interactive reports whether `sluice sql` should start the shell: no -e,
// no -f, and stdin is a terminal.
func (o Options) Interactive() bool {
	f, ok := o.Stdin.(*os.File)
	return o.Exec == "" && o.File == "" && ok && IsTerminal(f)
}

// Usage is the text of `sluice help`.
const Usage = `Sluice runs SQL over JSON, CSV and Parquet files on local disk or S3.

Usage:
  sluice sql -e 'SQL'          run statements given on the command line
  sluice sql -f file.sql       run a script ("-" reads stdin)
  sluice sql                   interactive shell on a terminal, else read stdin
  sluice ppl -e 'PPL'          the same for PPL queries (source=t | where ... | stats ...),
                               with the flags of sql; queries in a file end with ';'
  sluice version               print the version
  sluice help                  print this help

  sluice serve                 run the server: background streams, OpenSearch SQL REST API
  sluice passwd USER           add a user of the server or change its password
  sluice token create NAME     make an API token for the server (printed once)
  sluice token revoke NAME     remove a token
  sluice backup DEST           copy the data dir (--data-dir) to a folder or s3://bucket/prefix,
                               each stream as of its last commit, while a server runs on it
  sluice restore SRC           bring a backup back into --data-dir (missing or empty, or --force);
                               a server started there resumes each stream from its commit

Flags for sql:
  --format table|csv|json|jsonl   result format (default table)
  --data-dir DIR                  catalog, local indices and checkpoints
                                  (default $SLUICE_DATA_DIR, else ./sluice-data)
  --server URL                    send statements to a sluice serve at URL
                                  (default $SLUICE_SERVER) instead of running them here
                                  (without it, a data dir a sluice serve holds sends them
                                  to that server, saying so on stderr)
  --local                         run here; fail, naming the server, if one holds the data dir
  --memory-limit SIZE             memory for each query's state, like 256MB or 2GB;
                                  past it GROUP BY, ORDER BY, DISTINCT and join build
                                  sides spill to DIR/tmp, and a stream whose state
                                  outgrows it fails (default half of physical memory
                                  or of the cgroup limit; 'none' for no limit;
                                  SET memory_limit = '...' changes it per session)
  --cpuprofile FILE               write a Go CPU profile of the run to FILE (go tool pprof)
  --stop-timeout DURATION         after SIGINT/SIGTERM, how long a stream's running
                                  epoch may take to commit before it is abandoned
                                  (default 30s; 0: wait; a second signal abandons it)
  --stream-retry-initial D        a stream whose queue (NATS, Kafka, SQS) is unreachable
                                  says so on stderr and runs again after D, doubling
                                  each time (default 1s; negative: exit with the error)
  --stream-retry-max D            longest wait between those retries (default 5m)
  --user NAME                     basic auth user for --server (default $SLUICE_USER); the
                                  password is $SLUICE_PASSWORD, else asked on the terminal
  --token TOKEN                   API token for --server (default $SLUICE_TOKEN)
  --ca-cert FILE                  trust this PEM certificate for an https --server

Flags for serve (each is also a key of the --config file and a SLUICE_<SECTION>_<KEY>
variable; see the README's Configuration):
  --config FILE                   TOML settings file; the environment overrides it and
                                  flags given override both
  --print-config                  print the effective settings as TOML (secrets as ***) and exit
  --listen ADDR                   HTTP address (default 127.0.0.1:9210)
  --data-dir DIR                  as for sql; one server per data dir
  --max-concurrent-epochs N       epochs running at once over all streams (default GOMAXPROCS)
  --stop-timeout D                on SIGTERM, how long streams get to finish their epoch (default 30s)
  --query-retention D             how long finished async queries are kept (default 24h)
  --session-idle D                how long a client's session (its USE and SET) is kept after
                                  its last request (default 30m)
  --stream-retry-initial D        first retry of a stream that failed transiently, doubling
                                  each time (default 1s; negative: no retries)
  --stream-retry-max D            longest wait between a failing stream's retries (default 5m)
  --log-format text|json          log format on stderr (default text)
  --log-level LEVEL               debug, info, warn or error (default info)
  --users FILE                    users and tokens; turns authentication on (default
                                  DATA_DIR/users when it exists); required outside loopback
  --allowed-hosts NAMES           without --users, Host names answered besides localhost, loopback
                                  addresses and --listen's (comma-separated, repeatable); others
                                  get 403 (DNS rebinding)
  --audit-log FILE                append one JSON line per API statement (user, remote address,
                                  session, redacted statement, kind, duration, rows, outcome)
                                  and per refused request (401, 403, 429) to FILE, mode 0600
  --tls-cert FILE --tls-key FILE  serve HTTPS with this PEM certificate and key
  --allow-location PREFIX         a local path prefix or s3://bucket/prefix that read and
                                  write users may query by path and checkpoint streams in;
                                  repeatable; none by default: catalog tables only
  --max-body N                    largest request body in bytes (default 1048576)
  --query-timeout D               cancel a statement after D (default 10m)
  --max-rows N                    rows per response; more are paged with a cursor (default 10000);
                                  an async query with more fails
  --max-concurrent-queries N      API queries running at once over every query endpoint
                                  (default 128); more are answered 429 with Retry-After
  --max-result-bytes N            largest async query result on disk (default 67108864); a
                                  larger one fails the query
  --write-timeout D               cut off a client that takes longer to read a response (default 30s)

Flags for passwd and token:
  --users FILE                    the users file (default DATA_DIR/users, mode 0600)
  --data-dir DIR                  as for sql
  --role read|write|admin         read: SELECT, SHOW, DESCRIBE, EXPLAIN; write: also INSERT,
                                  INSERT STREAM, START/STOP STREAM on existing tables;
                                  admin: everything (DDL, SET, any path)
                                  (passwd: default read for a new user; token create: required)

Flags for backup and restore:
  --data-dir DIR                  as for sql
  --s3-endpoint URL               endpoint of an S3-compatible store for s3:// (default
                                  $SLUICE_S3_ENDPOINT); credentials from AWS_ACCESS_KEY_ID etc.
  --s3-region REGION              region for s3:// (default $SLUICE_S3_REGION)
  --user, --token, --ca-cert      backup: as for sql, to reach the server holding DIR (admin)
  --force                         restore: into a data dir that is not empty, replacing its
                                  catalog, secrets, checkpoints, indexes, tables and queries

Example:
  sluice sql -e "CREATE TABLE logs USING json LOCATION 'testdata/sample/http_logs/'"
  sluice sql --format csv -e 'SELECT status, count(*) FROM logs GROUP BY status'
`

// RunSQL runs a script (from -e, -f or stdin) statement by statement,
// writing each result as soon as it is ready, and stops at the first
// error. Statements from stdin run as each one is complete, so a
// streaming statement starts while stdin stays open. ctx is cancelled by
// SIGINT/SIGTERM; streaming statements stop cleanly when it is.
func RunSQL(ctx context.Context, o Options) error {
	f, err := NewFormatter(o.Format)
	if err != nil {
		return err
	}
	fromStdin := o.Exec == "" && (o.File == "" || o.File == "-")
	var name, script string
	if !fromStdin {
		if name, script, err = readScript(o); err != nil {
			return err
		}
	}
	defer bindWaits(ctx, o)()
	eng, bar, closeEng, err := openExecutor(o)
	if err != nil {
		return err
	}
	defer closeEng()
	out := newOutput(f, o.Stdout, o.Stderr)
	if o.Lang == LangPPL {
		return runPPL(ctx, eng, bar, out, name, script, fromStdin, o.Stdin)
	}
	if fromStdin {
		return runReader(ctx, eng, bar, out, "stdin", o.Stdin)
	}
	return runScript(ctx, eng, bar, out, name, script)
}

// readScript reads -e or -f (not stdin: runReader reads that as it comes).
func readScript(o Options) (name, script string, err error) {
	switch {
	case o.Exec != "" && o.File != "":
		return "", "", errors.New("give either -e or -f, not both")
	case o.Exec != "":
		return "-e", o.Exec, nil
	}
	b, err := os.ReadFile(o.File)
	if err != nil {
		return "", "", fmt.Errorf("reading script: %w", err)
	}
	return o.File, string(b), nil
}

// openExecutor is the server at o.Server, else an engine over o.DataDir.
func openExecutor(o Options) (executor, *progressBar, func(), error) {
	if o.Server != "" {
		r := &Remote{}
		if o.Remote != nil {
			*r = *o.Remote
		}
		r.URL = o.Server
		return r, nil, func() {}, nil
	}
	eng, bar, err := openEngine(o)
	if err != nil {
		return nil, nil, nil, err
	}
	return eng, bar, func() { eng.Close() }, nil
}

func openEngine(o Options) (*engine.Engine, *progressBar, error) {
	if err := os.MkdirAll(o.DataDir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("creating data dir: %w", err)
	}
	limit := exec.DefaultMemoryLimit()
	if o.MemoryLimit != "" {
		n, err := exec.ParseByteSize(o.MemoryLimit)
		if err != nil {
			return nil, nil, fmt.Errorf("--memory-limit: %w", err)
		}
		limit = n
	}
	if limit > 0 && os.Getenv("GOMEMLIMIT") == "" {
		// The garbage collector works harder near the limit instead of
		// letting the heap double past it; operator state gets a share of
		// it (exec.StateShare) and spills past that. The runtime's part
		// leaves room for the pages it does not count (exec.GoMemoryLimit).
		debug.SetMemoryLimit(exec.GoMemoryLimit(limit))
		if os.Getenv("GOGC") == "" {
			// With the limit as the bound, the heap may grow to five
			// times what is live between collections: a scan's garbage
			// is short-lived batches, and at Go's default (twice) a 1 GB
			// NDJSON query collected 26 times, marking (write barriers
			// on) a third of its run. Near the limit the collector still
			// works as hard as it must.
			debug.SetGCPercent(exec.GCPercent)
		}
	}
	opts := engine.Options{DataDir: o.DataDir, MemoryLimit: limit, RetryInitial: o.RetryInitial, RetryMax: o.RetryMax}
	var bar *progressBar
	if o.Progress {
		bar = newProgressBar(o.Stderr)
		opts.Progress = bar.Update
	}
	// Streaming statements report every committed epoch, terminal or not:
	// the lines are the log of a long-running job.
	opts.StreamProgress = func(p stream.Progress) {
		if bar != nil {
			bar.Println(p.Line())
			return
		}
		fmt.Fprintln(o.Stderr, p.Line())
	}
	opts.Warn = func(msg string) {
		if bar != nil {
			bar.Println("warning: " + msg)
			return
		}
		fmt.Fprintln(o.Stderr, "warning: "+msg)
	}
	eng, err := engine.Open(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("opening data dir %s: %w", o.DataDir, err)
	}
	return eng, bar, nil
}

// executor is the part of *engine.Engine the CLI needs: statements
// arrive parsed, once, by the CLI.
type executor interface {
	ExecuteStatement(ctx context.Context, st sql.Statement) (*engine.Result, error)
}

var _ executor = (*engine.Engine)(nil)

// runScript executes statements one at a time so results appear as they
// finish, and names the failing statement's line when the script has
// more than one. An unterminated quote or comment at the end fails the
// script before anything runs.
func runScript(ctx context.Context, eng executor, bar *progressBar, out output, name, script string) error {
	// The ";" lets the last statement go without one, as in psql -f.
	pieces, unfinished := splitPieces(script+"\n;", 1)
	if unfinished {
		return fmt.Errorf("%s: unterminated quote or comment after the last statement", name)
	}
	for _, p := range pieces {
		if err := runPiece(ctx, eng, bar, out, p); err != nil {
			err = withHint(p.text, err)
			if len(pieces) > 1 {
				return fmt.Errorf("%s:%d: %w", name, p.line, err)
			}
			return err
		}
	}
	return nil
}

// runPPL runs PPL queries separated by ';' (stdin is read whole first).
func runPPL(ctx context.Context, eng executor, bar *progressBar, out output, name, script string, fromStdin bool, stdin io.Reader) error {
	if fromStdin {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return fmt.Errorf("reading stdin: %w", err)
		}
		name, script = "stdin", string(b)
	}
	pieces, unfinished := splitPieces(script+"\n;", 1)
	if unfinished {
		return fmt.Errorf("%s: unterminated quote after the last query", name)
	}
	for _, p := range asPPL(pieces, LangPPL) {
		if err := runPiece(ctx, eng, bar, out, p); err != nil {
			if len(pieces) > 1 {
				return fmt.Errorf("%s:%d: %w", name, p.line, err)
			}
			return err
		}
	}
	return nil
}

// runReader executes statements from r as each one is complete (at the
// end of the line holding its ';'), not when r is closed. An error names
// the failing statement's line unless it was the whole input.
func runReader(ctx context.Context, eng executor, bar *progressBar, out output, name string, r io.Reader) error {
	br := bufio.NewReader(r)
	var buf strings.Builder
	start, lines, ran := 1, 0, 0
	run := func(pieces []piece, eof bool) error {
		for _, p := range pieces {
			if err := runPiece(ctx, eng, bar, out, p); err != nil {
				if ran == 0 && eof && len(pieces) == 1 {
					return err
				}
				return fmt.Errorf("%s:%d: %w", name, p.line, err)
			}
			ran++
		}
		return nil
	}
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			lines++
			buf.WriteString(line)
		}
		if errors.Is(err, io.EOF) {
			pieces, unfinished := splitPieces(buf.String()+"\n;", start)
			if unfinished {
				return fmt.Errorf("%s: unterminated quote or comment after the last statement", name)
			}
			return run(pieces, true)
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", name, err)
		}
		pieces, unfinished := splitPieces(buf.String(), start)
		if unfinished {
			continue
		}
		if err := run(pieces, false); err != nil {
			return err
		}
		buf.Reset()
		start = lines + 1
	}
}

// runPiece parses one statement and runs it.
func runPiece(ctx context.Context, eng executor, bar *progressBar, out output, p piece) error {
	st, err := p.parse()
	if err != nil {
		return err
	}
	return runStatement(ctx, eng, bar, out, st)
}

// output routes results: rows through the formatter to stdout; messages
// ("table t created") to stdout with the table format but to stderr with
// csv, json and jsonl, so piped machine output stays parseable.
type output struct {
	f          Formatter
	rows, msgs io.Writer
}

func newOutput(f Formatter, stdout, stderr io.Writer) output {
	out := output{f: f, rows: stdout, msgs: stdout}
	if _, table := f.(Table); !table && stderr != nil {
		out.msgs = stderr
	}
	return out
}

func (o output) write(r *engine.Result) error {
	if r.Schema != nil {
		f := o.f
		// Asked at each result, so a resized terminal is fitted.
		if t, ok := f.(Table); ok && t.Width == 0 {
			t.Width = terminalWidth(o.rows)
			f = t
		}
		if err := WriteResult(o.rows, f, &engine.Result{Schema: r.Schema, Batches: r.Batches}); err != nil {
			return err
		}
	}
	if r.Message != "" {
		return WriteResult(o.msgs, o.f, &engine.Result{Message: r.Message})
	}
	return nil
}

func runStatement(ctx context.Context, eng executor, bar *progressBar, out output, st sql.Statement) error {
	r, err := eng.ExecuteStatement(ctx, st)
	if bar != nil {
		bar.Clear()
	}
	if r != nil {
		if werr := out.write(r); werr != nil {
			return werr
		}
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return errors.New("interrupted")
	}
	return err
}
