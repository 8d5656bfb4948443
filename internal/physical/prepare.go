package physical

import (
	"context"
	"fmt"

	"sluice/internal/exec"
)

// Prepare does the I/O that compiling leaves out, before a plan runs: it
// lists the scans (all but a stream's input, which its runner feeds) and
// loads every join's build side. What it listed is what progress counts
// against. Compile itself reads nothing; this is the run's first step.
func (p *Plan) Prepare(ctx context.Context) (exec.Listing, error) {
	listed, err := exec.ListScans(ctx, p.Root, p.StreamScan)
	if err != nil {
		return listed, err
	}
	for _, l := range p.Lookups {
		if err := exec.LoadBuildSide(ctx, l.Join); err != nil {
			return listed, fmt.Errorf("building join side: %w", err)
		}
	}
	return listed, nil
}
