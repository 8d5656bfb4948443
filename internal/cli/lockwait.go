package cli

import (
	"context"
	"fmt"

	"sluice/internal/lockwait"
)

// bindWaits makes a wait on another process's lock, while statements
// run under ctx, say so on o.Stderr and end with ctx (the first
// SIGINT/SIGTERM), even under the catalog, whose API has no context.
func bindWaits(ctx context.Context, o Options) (restore func()) {
	unbind := lockwait.Bind(ctx)
	unnotify := lockwait.SetNotify(func(msg string) { fmt.Fprintln(o.Stderr, "sluice: "+msg) })
	return func() {
		unnotify()
		unbind()
	}
}
