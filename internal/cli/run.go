package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/mattn/go-isatty"

	"sluice/internal/engine"
	"sluice/internal/sql"
	"sluice/internal/stream"
)

// Version is the build's version, set with -ldflags "-X sluice/internal/cli.Version=v1.2.3".
var Version = "dev"

// Options is what `sluice sql` was asked to do.
type Options struct {
	DataDir string // the engine's data directory
	Format  string // table, csv, json or jsonl
	Exec    string // -e: SQL text to run
	File    string // -f: a script to run; "-" is stdin

	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Progress draws a progress bar on Stderr; set it only when Stderr is
	// a terminal.
	Progress bool
}

// DefaultDataDir is $SLUICE_DATA_DIR, else ./sluice-data.
func DefaultDataDir() string {
	if d := os.Getenv("SLUICE_DATA_DIR"); d != "" {
		return d
	}
	return "sluice-data"
}

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

// PrintVersion writes "sluice <version> (<go version> <os>/<arch>)".
func PrintVersion(w io.Writer) {
	fmt.Fprintf(w, "sluice %s (%s %s/%s)\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// Usage is the text of `sluice help`.
const Usage = `Sluice runs SQL over JSON, CSV and Parquet files on local disk or S3.

Usage:
  sluice sql -e 'SQL'          run statements given on the command line
  sluice sql -f file.sql       run a script ("-" reads stdin)
  sluice sql                   interactive shell on a terminal, else read stdin
  sluice version               print the version
  sluice help                  print this help

Flags for sql:
  --format table|csv|json|jsonl   result format (default table)
  --data-dir DIR                  catalog, local indices and checkpoints
                                  (default $SLUICE_DATA_DIR, else ./sluice-data)

Example:
  sluice sql -e "CREATE TABLE logs USING json LOCATION 'testdata/sample/http_logs/'"
  sluice sql --format csv -e 'SELECT status, count(*) FROM logs GROUP BY status'
`

// RunSQL runs a script (from -e, -f or stdin) statement by statement,
// writing each result as soon as it is ready, and stops at the first
// error. ctx is cancelled by SIGINT/SIGTERM; streaming statements stop
// cleanly when it is.
func RunSQL(ctx context.Context, o Options) error {
	f, err := NewFormatter(o.Format)
	if err != nil {
		return err
	}
	name, script, err := readScript(o)
	if err != nil {
		return err
	}
	eng, bar, err := openEngine(o)
	if err != nil {
		return err
	}
	defer eng.Close()
	return runScript(ctx, eng, bar, newOutput(f, o.Stdout, o.Stderr), name, script)
}

func readScript(o Options) (name, script string, err error) {
	switch {
	case o.Exec != "" && o.File != "":
		return "", "", errors.New("give either -e or -f, not both")
	case o.Exec != "":
		return "-e", o.Exec, nil
	case o.File == "" || o.File == "-":
		b, err := io.ReadAll(o.Stdin)
		if err != nil {
			return "", "", fmt.Errorf("reading stdin: %w", err)
		}
		return "stdin", string(b), nil
	}
	b, err := os.ReadFile(o.File)
	if err != nil {
		return "", "", fmt.Errorf("reading script: %w", err)
	}
	return o.File, string(b), nil
}

func openEngine(o Options) (*engine.Engine, *progressBar, error) {
	if err := os.MkdirAll(o.DataDir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("creating data dir: %w", err)
	}
	opts := engine.Options{DataDir: o.DataDir}
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

// executor is the part of *engine.Engine the CLI needs.
type executor interface {
	Execute(ctx context.Context, script string) ([]*engine.Result, error)
}

var _ executor = (*engine.Engine)(nil)

// runScript executes statements one at a time so results appear as they
// finish, and names the failing statement's line when the script has
// more than one.
func runScript(ctx context.Context, eng executor, bar *progressBar, out output, name, script string) error {
	// The ";" lets the last statement go without one, as in psql -f.
	stmts, unfinished := sql.SplitStatements(script + "\n;")
	if unfinished {
		return fmt.Errorf("%s: unterminated quote or comment after the last statement", name)
	}
	pos := 0
	for _, stmt := range stmts {
		at := strings.Index(script[pos:], stmt)
		line := 0
		if at >= 0 {
			at += pos
			line = 1 + strings.Count(script[:at], "\n")
			pos = at + len(stmt)
		}
		err := runStatement(ctx, eng, bar, out, stmt)
		if err != nil {
			if len(stmts) > 1 && line > 0 {
				return fmt.Errorf("%s:%d: %w", name, line, err)
			}
			return err
		}
	}
	return nil
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
		if err := WriteResult(o.rows, o.f, &engine.Result{Schema: r.Schema, Batches: r.Batches}); err != nil {
			return err
		}
	}
	if r.Message != "" {
		return WriteResult(o.msgs, o.f, &engine.Result{Message: r.Message})
	}
	return nil
}

func runStatement(ctx context.Context, eng executor, bar *progressBar, out output, stmt string) error {
	results, err := eng.Execute(ctx, stmt)
	if bar != nil {
		bar.Clear()
	}
	for _, r := range results {
		if werr := out.write(r); werr != nil {
			return werr
		}
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return errors.New("interrupted")
	}
	return err
}
