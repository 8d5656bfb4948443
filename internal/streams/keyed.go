package streams

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/job"
	"sluice/internal/stream"
	"sluice/internal/stream/partition"
)

// defaultPartitions is a keyed stream's partition count when WITH
// (partitions = P) is absent: well above the workers it is shared by.
const defaultPartitions = 32

// runKeyed runs a windowed aggregation as one of several workers: this
// process reads files as a worker slot does, but publishes each file's
// partial aggregates by partition instead of writing them (the reader),
// and owns the partitions it leases, merging their partials and writing
// closed windows to the sink (the owner). How the halves reach the
// other workers is stream/partition's (Dial).
func (m *Streams) runKeyed(ctx context.Context, rs *job.Run, q *stream.Query, src connector.StreamingSource, workers, at int, w *exec.WindowAggregate, fp string, opts map[string]string) error {
	parts := defaultPartitions
	if v := strings.TrimSpace(opts["partitions"]); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 4096 {
			return fmt.Errorf("stream %s: partitions %q: want a number from 1 to 4096", q.Name, v)
		}
		parts = n
	}
	c := partition.Config{Query: q, Source: src, Cut: at, Template: w, Parts: parts, Fingerprint: fp,
		Logf: func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) }}
	if bm, ok := src.(connector.BackfillMarker); ok {
		// Read before runSlots: SetWorker turns the listing off for
		// every slot but 0.
		c.Backfill = bm.BackfillMarker(slotCheckpoint(q.Checkpoint, 0).SourceArea())
	}
	k, err := partition.Dial(ctx, c)
	if err != nil {
		return err
	}
	defer k.Close()
	rs.WrapSource(k.Describe)
	return k.Run(ctx, rs.Stopping(), func(ctx context.Context, reader *stream.Query) error {
		return m.runSlots(ctx, rs, reader, src.(connector.Worker), workers)
	})
}
