package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Partials is an optional ability of an OrderInsensitive operator whose
// state merges: under unordered delivery each scan worker folds its own
// batches into a private Partial and hands it over when it has grown to
// maxPartialGroups groups or the worker runs out of splits; the operator
// merges each Partial once. Folding then runs on every worker, and the
// stage goroutine only merges a few groups per worker.
//
// Contract: the driver only uses partials where it would call ProcessAt;
// it may mix MergePartial with ProcessAt in one epoch. MergePartial takes
// ownership of p (it releases it). The result, and the order of its
// groups, is what ProcessAt of every batch gives.
type Partials interface {
	OrderInsensitive
	NewPartial() (Partial, error)
	MergePartial(ctx context.Context, p Partial) error
}

// Partial is one worker's fold of part of the input; not safe for
// concurrent use.
type Partial interface {
	// ProcessAt folds the batch whose first row is at pos.
	ProcessAt(ctx context.Context, batch arrow.RecordBatch, pos Pos) error
	// Size is the groups held and the rows folded.
	Size() (groups int, rows int64)
	Release()
}

// maxPartialGroups is the most groups a worker's partial holds before it
// is handed over: it bounds the memory partials hold outside the query's
// budget (about 100 bytes a group with its key, so ~6 MB per worker).
// Each hand-over re-inserts the partial's keys into the stage's table and
// the worker starts a fresh table, so the bound must sit above common key
// counts: at 16K, Q4's 20,000 clients overflowed every ~35,000 rows and
// the repeated merges cost a third of the query's CPU.
const maxPartialGroups = 64 << 10

// partialWorthIt reports whether a worker should keep folding partials
// after one reached maxPartialGroups from rows input rows: only when
// groups repeat enough (at least four rows per group) for the merge to
// cost less than the rows would.
func partialWorthIt(groups int, rows int64) bool { return rows >= 4*int64(groups) }

var _ Partials = (*HashAggregate)(nil)

// aggPartial is a HashAggregate's partial: a private aggregate with the
// same keys and aggregates, no budget, tracking first positions.
type aggPartial struct {
	h    *HashAggregate
	rows int64
}

// NewPartial returns an empty partial of h.
func (h *HashAggregate) NewPartial() (Partial, error) {
	names := make([]string, h.schema.NumFields())
	for i, f := range h.schema.Fields() {
		names[i] = f.Name
	}
	p, err := NewHashAggregate(h.groupBy, names, h.aggs)
	if err != nil {
		return nil, err
	}
	return &aggPartial{h: p}, nil
}

func (p *aggPartial) ProcessAt(ctx context.Context, batch arrow.RecordBatch, pos Pos) error {
	p.rows += batch.NumRows()
	return p.h.process(ctx, batch, pos)
}

func (p *aggPartial) Size() (int, int64) { return p.h.table.size(), p.rows }

func (p *aggPartial) Release() { p.h.release() }

// MergePartial folds a partial's groups into h: keys looked up (new ones
// kept), accumulators merged, first positions lowered.
func (h *HashAggregate) MergePartial(ctx context.Context, pp Partial) error {
	p, ok := pp.(*aggPartial)
	if !ok {
		return fmt.Errorf("hash aggregate: merging a %T", pp)
	}
	defer p.Release()
	if p.rows == 0 {
		return nil
	}
	ph := p.h
	n := ph.table.size()
	var ids []uint32
	var grown int64
	if len(h.groupBy) == 0 {
		ids = []uint32{0}
	} else {
		keyCols := make([]arrow.Array, len(h.groupBy))
		for c, g := range h.groupBy {
			col, err := concatArrays(g.Type(), ph.keys[c])
			if err != nil {
				releaseAll(keyCols)
				return fmt.Errorf("hash aggregate: merging partial keys: %w", err)
			}
			keyCols[c] = col
		}
		defer releaseAll(keyCols)
		ids = make([]uint32, n)
		h.fresh = h.table.assign(keyCols, n, ids, h.fresh)
		if len(h.fresh) > 0 {
			if err := h.keepKeys(ctx, keyCols, h.fresh, n); err != nil {
				return fmt.Errorf("hash aggregate: keeping keys: %w", err)
			}
			if h.budget != nil {
				for c := range h.keys {
					grown += 2 * arraySize(h.keys[c][len(h.keys[c])-1])
				}
				grown += int64(len(h.fresh)) * h.groupBytes()
			}
		}
	}
	for i, a := range h.aggs {
		if err := h.accs[i].Merge(ph.accs[i], ids); err != nil {
			return fmt.Errorf("hash aggregate: merging %s: %w", a, err)
		}
	}
	h.touch(ids)
	if len(h.groupBy) > 0 {
		// Before accounting: a spill would renumber the groups.
		for len(h.first) < h.table.size() {
			h.first = append(h.first, Pos(1<<62))
		}
		for g, id := range ids {
			if g < len(ph.first) && ph.first[g] < h.first[id] {
				h.first[id] = ph.first[g]
			}
		}
	}
	if grown > 0 {
		return h.account(ctx, grown)
	}
	return nil
}
