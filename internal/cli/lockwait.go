package cli

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/lockwait"
)

// bindWaits makes a wait on another process's lock, while statements
// run under ctx, say so on o.Stderr and end with ctx (the first
// SIGINT/SIGTERM), even under the catalog, whose API has no context.
// The Ctrl-C hint is added here: a server logs the same waits, where
// there is no Ctrl-C to press.
func bindWaits(ctx context.Context, o Options) (restore func()) {
	unbind := lockwait.Bind(ctx)
	unnotify := lockwait.SetNotify(func(msg string) {
		if strings.HasPrefix(msg, "waiting for ") {
			msg += "; Ctrl-C to stop"
		}
		fmt.Fprintln(o.Stderr, "sluice: "+msg)
	})
	return func() {
		unnotify()
		unbind()
	}
}
