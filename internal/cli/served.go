package cli

import (
	"fmt"

	"sluice/internal/served"
)

// RouteServed sends o's statements to the `sluice serve` holding
// o.DataDir, as --server would, when one does and no --server was given:
// opened in-process beside it, the data dir's locks (the local indexes
// a stream writes, the checkpoints) are the server's, so a statement
// would wait on them, and SHOW STREAMS would call the server's running
// streams stopped. It says so on stderr, once. With o.Local it refuses
// instead, naming the server.
func RouteServed(o *Options) error {
	if o.Server != "" {
		return nil
	}
	r, ok := served.Lookup(o.DataDir)
	if !ok {
		return nil
	}
	if o.Local {
		return fmt.Errorf("%s is served by %s (pid %d): --local cannot run beside it; drop --local to send the statements there, or stop the server", o.DataDir, r.URL, r.PID)
	}
	fmt.Fprintf(o.Stderr, "sluice: %s is served by %s (pid %d); sending statements there\n", o.DataDir, r.URL, r.PID)
	o.Server = r.URL
	return nil
}
