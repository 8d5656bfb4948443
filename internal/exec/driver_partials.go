package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// InOrderPartials is an optional ability of a Partials operator that
// does not take any order but whose partials may be merged in input
// order: under split-order delivery each scan worker folds the split it
// reads into partials of its own (handed over as they fill and at the
// split's end), and the operator merges them in split order. A float sum
// is then a sum of per-partial sums, and an approximate sketch a merge
// of sketches: deterministic for given input and splits, whatever the
// timing, though not the rounding a one-by-one fold gives.
//
// Contract: when MergesInOrder reports true the driver may, for a scan
// the planner marked MergeInOrder, hand the operator partials and
// batches (through ProcessAt, with their positions) in input order;
// MergePartial of partials in input order gives what ProcessAt of their
// batches in that order gives, up to the rounding just described.
type InOrderPartials interface {
	Partials
	MergesInOrder() bool
}

// MergesInOrder reports whether op's partials may be merged in input
// order (see InOrderPartials).
func MergesInOrder(op Operator) bool {
	m, ok := op.(InOrderPartials)
	return ok && m.MergesInOrder()
}

// inOrderEntry is the chain's first operator when sc's workers may fold
// partials for it in split order, else nil.
func (c *chain) inOrderEntry(sc *Scan) InOrderPartials {
	if !sc.MergeInOrder || len(c.ops) == 0 || !MergesInOrder(c.ops[0]) {
		return nil
	}
	return c.ops[0].(InOrderPartials)
}

// takesDictionaries reports whether m's partials take dictionary
// columns (DictionaryPartials).
func takesDictionaries(m Partials) bool {
	dp, ok := m.(DictionaryPartials)
	return ok && dp.PartialsTakeDictionaries()
}

// readSplitFolded reads split idx and folds its batches into partials
// handed over on ch in order. When groups barely repeat (see
// partialWorthIt) the rest of the split goes over as batches with their
// positions instead.
func (d *driver) readSplitFolded(ctx context.Context, sc *Scan, idx int, local *chain, merger InOrderPartials, ch chan<- item) error {
	var part Partial
	defer func() {
		if part != nil {
			part.Release()
		}
	}()
	fold := true
	var row int64
	send := func(ctx context.Context, it item) error {
		select {
		case ch <- it:
			return nil
		case <-ctx.Done():
			if it.batch != nil {
				it.batch.Release()
			}
			if it.partial != nil {
				it.partial.Release()
			}
			return ctx.Err()
		}
	}
	hand := func(ctx context.Context) error {
		p := part
		part = nil
		return send(ctx, item{partial: p})
	}
	emit := func(ctx context.Context, b arrow.RecordBatch) error {
		pos := Pos(int64(idx)<<PosSplitShift + row)
		row += b.NumRows()
		if !fold {
			pb, err := plainBatch(b, -1)
			if err != nil {
				return err
			}
			return send(ctx, item{batch: pb, pos: pos})
		}
		if part == nil {
			p, err := merger.NewPartial()
			if err != nil {
				return &partialError{err}
			}
			part = p
		}
		if err := part.ProcessAt(ctx, b, pos); err != nil {
			return &partialError{err}
		}
		if groups, rows := part.Size(); groups >= maxPartialGroups {
			fold = partialWorthIt(groups, rows)
			return hand(ctx)
		}
		return nil
	}
	if err := d.readSplit(ctx, sc, sc.Splits[idx], local, takesDictionaries(merger), emit); err != nil {
		return err
	}
	if part != nil {
		return hand(ctx)
	}
	return nil
}
