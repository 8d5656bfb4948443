package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chzyer/readline"
	"golang.org/x/term"
)

const (
	prompt     = "sluice> "
	pplPrompt  = "ppl> "
	contPrompt = "     -> "
)

// Shell runs the interactive shell: line editing and history (kept in
// the data dir), statements that span lines until a semicolon, meta
// commands (\dt, \x, .mode ...: meta.go), Ctrl-C to drop the current
// input or cancel a running statement, Ctrl-D or "exit" to leave. An
// error is printed and the shell goes on.
func Shell(ctx context.Context, o Options) error {
	f, err := NewFormatter(o.Format)
	if err != nil {
		return err
	}
	eng, bar, closeEng, err := openExecutor(o)
	if err != nil {
		return err
	}
	defer closeEng()

	return shell(ctx, o, eng, bar, f)
}

// session is the shell's state between lines: what the meta commands
// change and the statement being typed.
type session struct {
	ctx  context.Context
	o    Options
	eng  executor
	bar  *progressBar
	rl   *readline.Instance
	f    Formatter
	mode string // the format's name, for .mode
	// rows is where results go: stdout, or the file of \o (outFile).
	rows     io.Writer
	outFile  *os.File
	timing   bool
	expanded bool
	lang     string
	lines    []string // the unfinished statement
	depth    int      // \i nesting
	quit     bool
}

// shell is the read-eval-print loop, apart from the engine so tests can
// drive it with a fake executor and piped input.
func shell(ctx context.Context, o Options, eng executor, bar *progressBar, f Formatter) error {
	// History holds statements as typed (credentials redacted, see
	// historyEntry): create it readable by its owner only all the same
	// (readline would use 0666).
	history := filepath.Join(o.DataDir, ".sluice_history")
	if f, err := os.OpenFile(history, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
		f.Close()
	}
	s := &session{ctx: ctx, o: o, eng: eng, bar: bar, f: f, mode: formatName(f), rows: o.Stdout, lang: o.Lang}
	stdin, _ := o.Stdin.(io.ReadCloser)
	cfg := &readline.Config{
		Prompt:                 s.prompt(),
		HistoryFile:            history,
		DisableAutoSaveHistory: true,
		InterruptPrompt:        "^C",
		Stdin:                  stdin,
		Stdout:                 o.Stdout,
		Stderr:                 o.Stderr,
		AutoComplete:           &completer{eng: eng, ctx: ctx},
	}
	bindTerminal(cfg, o)
	rl, err := readline.NewEx(cfg)
	if err != nil {
		return fmt.Errorf("starting shell: %w", err)
	}
	defer rl.Close()
	s.rl = rl
	defer s.closeOut()
	fmt.Fprintf(o.Stdout, "Sluice %s. End statements with ';'; \\? for help, Ctrl-D to leave.\n", VersionString())

	for !s.quit {
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			s.lines = nil
			rl.SetPrompt(s.prompt())
			continue
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return fmt.Errorf("reading input: %w", err)
		}
		s.feed(line)
		rl.SetPrompt(s.prompt())
	}
	return nil
}

// bindTerminal points readline's terminal handling at the shell's own
// stdin and stdout: its defaults look at the process's, which are not
// the shell's under a test's pseudo-terminal.
func bindTerminal(cfg *readline.Config, o Options) {
	in, ok := o.Stdin.(*os.File)
	if !ok {
		return
	}
	out, _ := o.Stdout.(*os.File)
	var saved *readline.State
	cfg.FuncIsTerminal = func() bool { return term.IsTerminal(int(in.Fd())) && out != nil && term.IsTerminal(int(out.Fd())) }
	// readline's raw mode, not x/term's: it keeps output processing
	// (OPOST), so the newline readline echoes on Enter also returns the
	// carriage and the output starts at the left margin.
	cfg.FuncMakeRaw = func() error {
		st, err := readline.MakeRaw(int(in.Fd()))
		if err == nil {
			saved = st
		}
		return err
	}
	cfg.FuncExitRaw = func() error {
		if saved == nil {
			return nil
		}
		st := saved
		saved = nil
		return readline.Restore(int(in.Fd()), st)
	}
	if out != nil {
		cfg.FuncGetWidth = func() int {
			w, _, err := term.GetSize(int(out.Fd()))
			if err != nil {
				return -1
			}
			return w
		}
	}
}

func (s *session) prompt() string {
	switch {
	case len(s.lines) > 0:
		return contPrompt
	case s.lang == LangPPL:
		return pplPrompt
	}
	return prompt
}

// feed takes one line of input: a meta command when no statement is
// pending, else part of a statement, run once its ';' is typed.
func (s *session) feed(line string) {
	if len(s.lines) == 0 {
		t := strings.TrimSpace(line)
		switch strings.TrimSuffix(t, ";") {
		case "exit", "quit":
			s.quit = true
			return
		case "help":
			s.help()
			return
		case "":
			return
		}
		if strings.HasPrefix(t, `\`) || strings.HasPrefix(t, ".") {
			s.saveHistory(t)
			if err := s.meta(t); err != nil {
				s.printError(t, err)
			}
			return
		}
	}
	s.lines = append(s.lines, line)
	pieces, unfinished := splitPieces(strings.Join(s.lines, "\n"), 1)
	if unfinished {
		return
	}
	// One history entry per statement, on one line, so Up recalls it
	// whole; credentials redacted.
	s.saveHistory(historyEntry(strings.Join(s.lines, " ")))
	s.lines = nil
	s.runPieces(pieces)
}

// saveHistory keeps what was typed, not the lines of a \i script.
func (s *session) saveHistory(entry string) {
	if s.depth == 0 && s.rl != nil {
		s.rl.SaveHistory(entry)
	}
}

// runPieces runs statements until one fails, printing the error.
func (s *session) runPieces(pieces []piece) {
	for _, p := range asPPL(pieces, s.lang) {
		start := time.Now()
		sctx, stop := SignalContext(s.ctx, s.o.StopTimeout, os.Interrupt)
		unbind := bindWaits(sctx, s.o)
		err := runPiece(sctx, s.eng, s.bar, s.output(), p)
		unbind()
		stop()
		s.printTime(start)
		if err != nil {
			s.printError(p.text, err)
			return
		}
	}
}

// output is where results go now: the format of .mode and \x, the file
// of \o.
func (s *session) output() output {
	f := s.f
	if t, ok := f.(Table); ok {
		t.Expanded = s.expanded
		f = t
	}
	out := newOutput(f, s.o.Stdout, s.o.Stderr)
	out.rows = s.rows
	return out
}

// printTime prints how long a statement took, when \timing is on, where
// messages go (stderr with machine formats, so they stay parseable).
func (s *session) printTime(start time.Time) {
	if !s.timing {
		return
	}
	d := time.Since(start)
	fmt.Fprintf(s.output().msgs, "Time: %.1f ms\n", float64(d.Microseconds())/1000)
}

// printError prints err, and a hint when the input looks like a habit
// from another database (hints.go).
func (s *session) printError(input string, err error) {
	fmt.Fprintln(s.o.Stderr, "error:", err)
	if h := hint(input, err); h != "" {
		fmt.Fprintln(s.o.Stderr, "hint:", h)
	}
}

// closeOut ends \o's redirection.
func (s *session) closeOut() error {
	s.rows = s.o.Stdout
	if s.outFile == nil {
		return nil
	}
	err := s.outFile.Close()
	s.outFile = nil
	return err
}
