package cli

import (
	"io"
	"os"

	"golang.org/x/term"
)

// terminalWidth is w's width in cells when w is a terminal, else 0: the
// table format fits a terminal and prints values whole anywhere else.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		return 0
	}
	return width
}
