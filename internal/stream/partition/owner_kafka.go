package partition

// Owner.Run over Kafka: the partitions held are the ones the owners'
// consumer group assigns (kafkaGroup), synced before each round.

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// runGroup syncs the partitions held with the group's assignment and
// runs rounds of epochs until ctx ends or stop is closed; on return it
// leaves the group, so the others need not wait for the session to time
// out.
func (o *Owner) runGroup(ctx context.Context, stop <-chan struct{}) error {
	defer func() {
		for p := range o.parts {
			o.drop(p) // closes its reader's client
		}
		o.group.leave(context.WithoutCancel(ctx))
	}()
	stopped := stopFunc(ctx, stop)
	var lastView time.Time
	for !stopped() {
		if err := o.syncGroup(ctx); err != nil && ctx.Err() == nil {
			o.logf("keyed stream %s: %v", o.Stream, err)
		}
		if time.Since(lastView) >= time.Second {
			o.viewGroup(ctx)
			lastView = time.Now()
		}
		o.round(ctx, stopped)
		select {
		case <-ctx.Done():
		case <-stop:
		case <-o.group.changed:
		case <-time.After(o.Interval):
		}
	}
	return nil
}

// syncGroup drops the partitions no longer assigned (or assigned anew,
// under a later generation) and restores the ones assigned but not
// held.
func (o *Owner) syncGroup(ctx context.Context) error {
	assigned := o.group.Assigned()
	for p, part := range o.parts {
		if gen, ok := assigned[p]; !ok || gen != part.gen {
			o.drop(p)
			o.mu.Lock()
			o.stats.Handbacks++
			o.mu.Unlock()
		}
	}
	ids := make([]int, 0, len(assigned))
	for p := range assigned {
		if _, held := o.parts[p]; !held && p < o.Parts {
			ids = append(ids, p)
		}
	}
	sort.Ints(ids)
	for _, p := range ids {
		part, err := o.restore(ctx, p, assigned[p])
		if err != nil {
			return fmt.Errorf("partition %d: %w", p, err)
		}
		o.mu.Lock()
		o.parts[p] = part
		o.stats.Takeovers++
		o.mu.Unlock()
	}
	return nil
}

// viewGroup refreshes the owners and live workers DESCRIBE STREAM
// shows.
func (o *Owner) viewGroup(ctx context.Context) {
	live, owners, err := o.group.view(ctx)
	if err != nil {
		if ctx.Err() == nil {
			o.logf("keyed stream %s: %v", o.Stream, err)
		}
		return
	}
	if !contains(live, o.group.worker) {
		live = append(live, o.group.worker)
	}
	o.mu.Lock()
	o.owners, o.live = owners, live
	o.mu.Unlock()
}
