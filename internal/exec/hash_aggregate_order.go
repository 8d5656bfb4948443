package exec

import (
	"cmp"
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
)

// AnyOrder is true when every aggregate is exact in any order (see
// exactInAnyOrder): with ProcessAt the groups' first rows are tracked, so
// the output is what in-order delivery gives, spilled or not.
func (h *HashAggregate) AnyOrder() bool {
	for _, a := range h.aggs {
		if !exactInAnyOrder(a) {
			return false
		}
	}
	return true
}

// ProcessAt folds the batch whose first row is at pos in input order.
func (h *HashAggregate) ProcessAt(ctx context.Context, batch arrow.RecordBatch, pos Pos, out Output) error {
	return h.process(ctx, batch, pos)
}

// noteFirst lowers each group's first position to the rows of this
// batch. Rows of one batch are in order, so a group's first row in the
// batch is the one that counts.
func (h *HashAggregate) noteFirst(ids []uint32, pos Pos) {
	for len(h.first) < h.table.size() {
		h.first = append(h.first, Pos(1<<62))
	}
	first := h.first
	for i, g := range ids {
		if p := pos.At(i); p < first[g] {
			first[g] = p
		}
	}
}

// seqOf is the group's sequence number for spilled runs: its first
// input position when tracked, else its first-seen rank.
func (h *HashAggregate) seqOf(g int) int64 {
	if len(h.first) > g {
		return int64(h.first[g])
	}
	return h.spill.base + int64(g)
}

// inputOrder is the permutation that puts the groups in the order of
// their first rows, or nil when they already are (always so under
// in-order delivery).
func (h *HashAggregate) inputOrder() []int {
	n := h.table.size()
	if len(h.first) < n || slices.IsSorted(h.first[:n]) {
		return nil
	}
	return sortedBy(h.first[:n])
}

// sortedBy returns the indices of keys in ascending key order.
func sortedBy[T cmp.Ordered](keys []T) []int {
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
	return idx
}

var _ InOrderPartials = (*HashAggregate)(nil)

// MergesInOrder is true when every aggregate is exact in any order or
// merges in input order (see mergesInOrder), so workers may fold splits
// into partials merged in split order.
func (h *HashAggregate) MergesInOrder() bool {
	for _, a := range h.aggs {
		if !exactInAnyOrder(a) && !mergesInOrder(a) {
			return false
		}
	}
	return true
}

// EmitInAnyOrder tells the aggregate that its consumer's result does not
// depend on the order of the groups (a global aggregate exact in any
// order reads them, say): spilled groups then come out partition by
// partition as each is merged, without being written once more and
// merged back into first-seen order. Without spilling nothing changes.
func (h *HashAggregate) EmitInAnyOrder() { h.anyOrderOut = true }

// EmitsInAnyOrder reports whether EmitInAnyOrder was called.
func (h *HashAggregate) EmitsInAnyOrder() bool { return h.anyOrderOut }
