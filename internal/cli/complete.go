package cli

import "context"

// completer is the shell's tab completion.
type completer struct {
	eng executor
	ctx context.Context
}

// Do implements readline.AutoCompleter.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) { return nil, 0 }
