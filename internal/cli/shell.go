package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chzyer/readline"
)

const (
	prompt     = "sluice> "
	pplPrompt  = "ppl> "
	contPrompt = "     -> "
)

// Shell runs the interactive shell: line editing and history (kept in
// the data dir), statements that span lines until a semicolon, Ctrl-C to
// drop the current input or cancel a running statement, Ctrl-D or "exit"
// to leave. An error is printed and the shell goes on.
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
	stdin, _ := o.Stdin.(io.ReadCloser)
	rl, err := readline.NewEx(&readline.Config{
		Prompt:                 prompt,
		HistoryFile:            history,
		DisableAutoSaveHistory: true,
		InterruptPrompt:        "^C",
		Stdin:                  stdin,
		Stdout:                 o.Stdout,
		Stderr:                 o.Stderr,
	})
	if err != nil {
		return fmt.Errorf("starting shell: %w", err)
	}
	defer rl.Close()
	fmt.Fprintf(o.Stdout, "Sluice %s. End statements with ';'. Type help for help, exit or Ctrl-D to leave.\n", VersionString())

	out := newOutput(f, o.Stdout, o.Stderr)
	lang := o.Lang
	if lang == LangPPL {
		rl.SetPrompt(pplPrompt)
	}
	promptFor := func() string {
		if lang == LangPPL {
			return pplPrompt
		}
		return prompt
	}
	var lines []string
	for {
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			lines = nil
			rl.SetPrompt(promptFor())
			continue
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return fmt.Errorf("reading input: %w", err)
		}
		if len(lines) == 0 {
			switch strings.TrimSuffix(strings.TrimSpace(line), ";") {
			case "exit", "quit", `\q`, ".exit", ".quit":
				return nil
			case "help", `\?`, ".help", `\h`:
				fmt.Fprint(o.Stdout, shellHelp)
				continue
			case `\ppl`:
				lang = LangPPL
				rl.SetPrompt(promptFor())
				continue
			case `\sql`:
				lang = LangSQL
				rl.SetPrompt(promptFor())
				continue
			case "":
				continue
			}
		}
		lines = append(lines, line)
		text := strings.Join(lines, "\n")
		pieces, unfinished := splitPieces(text, 1)
		if unfinished {
			rl.SetPrompt(contPrompt)
			continue
		}
		// One history entry per statement, on one line, so Up recalls it
		// whole; credentials redacted.
		rl.SaveHistory(historyEntry(strings.Join(lines, " ")))
		lines = nil
		rl.SetPrompt(promptFor())
		for _, p := range asPPL(pieces, lang) {
			sctx, stop := SignalContext(ctx, o.StopTimeout, os.Interrupt)
			unbind := bindWaits(sctx, o)
			err := runPiece(sctx, eng, bar, out, p)
			unbind()
			stop()
			if err != nil {
				fmt.Fprintln(o.Stderr, "error:", err)
				break
			}
		}
	}
}

const shellHelp = `Statements end with ';' and may span lines.
  SHOW TABLES;  DESCRIBE t;  EXPLAIN SELECT ...;
  \ppl          type PPL queries (source=t | where ... ;), \sql to go back
  Ctrl-C        drop the current input, or cancel a running statement
  exit, Ctrl-D  leave the shell
`
