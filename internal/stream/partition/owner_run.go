package partition

// Owner.Run, its loop: heartbeats, lease balancing and the epochs of
// the partitions it holds (owner.go has the epoch itself).

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/cespare/xxhash/v2"

	"sluice/internal/queue"
)

// Run heartbeats, balances and runs epochs until ctx ends (abandoning
// the running epoch, which its next owner replays) or stop is closed
// (finishing the running epoch first); on return it hands every lease
// back at once, so the other workers need not wait for the TTL.
func (o *Owner) Run(ctx context.Context, stop <-chan struct{}) error {
	o.parts = map[int]*ownedPart{}
	o.wm = math.MinInt64
	if o.group != nil {
		return o.runGroup(ctx, stop)
	}
	beat := o.Leases.TTL / 3
	if _, err := o.Leases.Heartbeat(ctx); err != nil {
		return fmt.Errorf("keyed stream %s: %w", o.Stream, queue.NATSError(err))
	}
	// The heartbeat and the watch outlive a stop until the last epoch
	// committed: the leases must hold until then.
	bctx, endBeat := context.WithCancel(ctx)
	freed, err := o.Leases.Freed(bctx)
	if err != nil {
		o.logf("keyed stream %s: %v (rebalancing at each beat only)", o.Stream, err)
	}
	hbDone := make(chan struct{})
	go func() {
		defer close(hbDone)
		t := time.NewTicker(beat)
		defer t.Stop()
		for {
			select {
			case <-bctx.Done():
				return
			case <-t.C:
				if lost, err := o.Leases.Heartbeat(bctx); err != nil && bctx.Err() == nil {
					o.logf("keyed stream %s: %v", o.Stream, err)
				} else if len(lost) > 0 {
					o.logf("keyed stream %s: lost partitions %v", o.Stream, lost)
				}
			}
		}
	}()
	defer func() {
		endBeat()
		<-hbDone
		if err := o.Leases.Leave(context.WithoutCancel(ctx)); err != nil {
			o.logf("keyed stream %s: %v", o.Stream, err)
		}
	}()
	stopped := stopFunc(ctx, stop)
	var lastBalance time.Time
	for !stopped() {
		if time.Since(lastBalance) >= beat {
			if err := o.balance(ctx); err != nil && ctx.Err() == nil {
				o.logf("keyed stream %s: balancing: %v", o.Stream, err)
			}
			lastBalance = time.Now()
		}
		o.round(ctx, stopped)
		select {
		case <-ctx.Done():
		case <-stop:
		case <-freed:
			lastBalance = time.Time{}
		case <-time.After(o.Interval):
		}
	}
	return nil
}

// stopFunc reports whether ctx ended or stop was closed.
func stopFunc(ctx context.Context, stop <-chan struct{}) func() bool {
	return func() bool {
		select {
		case <-stop:
			return true
		default:
			return ctx.Err() != nil
		}
	}
}

// round runs one epoch of each partition held, under the watermark
// and ack floor read first; a partition whose epoch fails is dropped
// and released (its checkpoint is intact: whoever holds it next
// replays the epoch).
func (o *Owner) round(ctx context.Context, stopped func() bool) {
	// The backfill is checked, then the ack floor read, before any
	// epoch reads its range: what they say is then folded by the end
	// of that epoch.
	o.checkBackfill(ctx)
	wm, err := o.watermarks().Watermark(ctx)
	if err != nil && ctx.Err() == nil {
		o.logf("keyed stream %s: %v", o.Stream, err)
	}
	o.setFloor(o.watermarks().Floor())
	o.mu.Lock()
	o.wm = wm
	ids := make([]int, 0, len(o.parts))
	for p := range o.parts {
		ids = append(ids, p)
	}
	o.mu.Unlock()
	sort.Ints(ids)
	for _, p := range ids {
		if stopped() {
			break
		}
		part := o.parts[p]
		if err := o.guardedEpoch(ctx, part, wm); err != nil {
			if ctx.Err() != nil {
				break
			}
			o.logf("keyed stream %s: partition %d: %v (dropped; its checkpoint is intact)", o.Stream, p, err)
			o.drop(p)
			_ = o.members().Release(ctx, p)
		}
	}
}

// guardedEpoch runs part's epoch; over Kafka, with the partition's
// revocation held off until it ends, and not at all once revoked.
func (o *Owner) guardedEpoch(ctx context.Context, part *ownedPart, wm int64) error {
	if o.group != nil {
		ok, release := o.group.guard(part.id, part.gen)
		defer release()
		if !ok {
			return nil // the next sync drops it
		}
	}
	return o.epoch(ctx, part, wm)
}

// checkBackfill reads, until it is true, whether the first listing is
// all committed.
func (o *Owner) checkBackfill(ctx context.Context) {
	if o.backfilled {
		return
	}
	if o.Backfilled == nil {
		o.backfilled = true
		return
	}
	done, err := o.Backfilled(ctx)
	if err != nil {
		if ctx.Err() == nil {
			o.logf("keyed stream %s: reading the backfill marker: %v", o.Stream, err)
		}
		return
	}
	o.backfilled = done
}

// setFloor takes the file queue's ack floor as the next epochs' horizon,
// once the backfill is committed (a listed file's partials carry no
// queue sequence: until then nothing may be forgotten).
func (o *Owner) setFloor(floor uint64) {
	if o.backfilled && floor > o.floor {
		o.floor = floor
	}
}

func (o *Owner) drop(p int) {
	o.mu.Lock()
	part := o.parts[p]
	delete(o.parts, p)
	o.mu.Unlock()
	if part != nil {
		part.in.close(context.Background())
	}
}

// balance takes free partitions while holding fewer than the target
// (partitions / live workers) and hands extra ones back.
func (o *Owner) balance(ctx context.Context) error {
	for _, p := range o.Leases.Held() {
		if _, ok := o.parts[p]; !ok {
			_ = o.Leases.Release(ctx, p)
		}
	}
	for p := range o.parts {
		if _, ok := o.Leases.Holds(p); !ok {
			o.drop(p) // lost at renewal
		}
	}
	live, owners, err := o.Leases.View(ctx)
	if err != nil {
		return err
	}
	if !contains(live, o.Leases.Worker) {
		live = append(live, o.Leases.Worker)
	}
	o.mu.Lock()
	o.owners, o.live = owners, live
	o.mu.Unlock()
	target := Target(o.Parts, len(live))
	held := o.Leases.Held()
	for len(held) > target {
		p := held[len(held)-1]
		held = held[:len(held)-1]
		o.drop(p)
		if err := o.Leases.Release(ctx, p); err != nil {
			return err
		}
		o.stats.Handbacks++
	}
	start := int(xxhash.Sum64String(o.Leases.Worker) % uint64(o.Parts))
	for i := 0; i < o.Parts && len(o.Leases.Held()) < target; i++ {
		p := (start + i) % o.Parts
		if _, taken := owners[p]; taken {
			continue
		}
		if _, mine := o.Leases.Holds(p); mine {
			continue
		}
		gen, ok, err := o.Leases.Take(ctx, p)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		part, err := o.restore(ctx, p, gen)
		if err != nil {
			_ = o.Leases.Release(ctx, p)
			return fmt.Errorf("partition %d: %w", p, err)
		}
		o.mu.Lock()
		o.parts[p] = part
		o.owners[p] = Holder{Worker: o.Leases.Worker, Gen: gen}
		o.stats.Takeovers++
		o.mu.Unlock()
	}
	return nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
