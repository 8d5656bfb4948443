package exec

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"
)

// ErrOverBudget is what MemoryBudget.Reserve returns when the bytes asked
// for do not fit. An operator that can spill writes state to disk and
// retries; one that cannot returns a clear error wrapping it.
var ErrOverBudget = errors.New("over the memory limit")

// MemoryBudget bounds the bytes a query's operators hold in state (hash
// tables, buffered rows). Operators Reserve before they grow and Release
// what they drop; the sizes are estimates of live heap, not exact. Safe
// for concurrent use. A nil *MemoryBudget is unlimited and costs nothing,
// which is how operators run when no limit is set.
type MemoryBudget struct {
	limit    int64
	used     atomic.Int64
	spillDir string
	spills   atomic.Int64
	// memoryLimit is the setting this budget is a share of, for messages.
	memoryLimit int64
}

// NewMemoryBudget allows limit bytes (> 0) of operator state; spill
// files go to spillDir (created on first use; the system temp dir when
// "").
func NewMemoryBudget(limit int64, spillDir string) *MemoryBudget {
	return &MemoryBudget{limit: limit, spillDir: spillDir}
}

// StateShare is the part of a process's memory limit that operator state
// gets (QueryBudget): the rest is for batches in flight, spill buffers,
// the copies a spill makes, the garbage collector's headroom and the
// executable's pages, which the estimates do not see. At 0.5 a 10M-key
// GROUP BY under 256MB peaked at 320 MiB RSS (the estimates see about
// half of what groups really hold); at 0.3 it peaks at 232 MiB
// (BENCHMARKS.md).
const StateShare = 0.3

// QueryBudget is the budget of one query under a memory limit of
// memoryLimit bytes: StateShare of it.
func QueryBudget(memoryLimit int64, spillDir string) *MemoryBudget {
	b := NewMemoryBudget(int64(float64(memoryLimit)*StateShare), spillDir)
	b.memoryLimit = memoryLimit
	return b
}

// Reserve takes n more bytes, or takes nothing and returns ErrOverBudget
// when that would pass the limit.
func (b *MemoryBudget) Reserve(n int64) error {
	if b == nil || n <= 0 {
		return nil
	}
	if b.used.Add(n) > b.limit {
		b.used.Add(-n)
		return ErrOverBudget
	}
	return nil
}

// force takes n bytes even past the limit: state that is already held
// and about to be spilled or reported.
func (b *MemoryBudget) force(n int64) {
	if b != nil && n > 0 {
		b.used.Add(n)
	}
}

// Release gives back n bytes taken with Reserve.
func (b *MemoryBudget) Release(n int64) {
	if b == nil || n <= 0 {
		return
	}
	b.used.Add(-n)
}

// Limit is the budget in bytes; 0 for a nil (unlimited) budget.
func (b *MemoryBudget) Limit() int64 {
	if b == nil {
		return 0
	}
	return b.limit
}

// MemoryLimit is the setting the budget is a share of (QueryBudget), or
// Limit.
func (b *MemoryBudget) MemoryLimit() int64 {
	if b == nil || b.memoryLimit == 0 {
		return b.Limit()
	}
	return b.memoryLimit
}

// Used is the bytes reserved now.
func (b *MemoryBudget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

// Spills is how many spill files the query has written (for tests and
// EXPLAIN ANALYZE-like reports).
func (b *MemoryBudget) Spills() int64 {
	if b == nil {
		return 0
	}
	return b.spills.Load()
}

// SpillDir is where spill files go.
func (b *MemoryBudget) SpillDir() string {
	if b == nil || b.spillDir == "" {
		return os.TempDir()
	}
	return b.spillDir
}

// MemoryUser is an operator whose state counts against a budget. Batch
// operators that can spill (HashAggregate, Sort, Distinct, HashJoin) do
// so when Reserve fails; the budget is set before the first message.
type MemoryUser interface {
	SetMemoryBudget(b *MemoryBudget)
}

// StateBudgeted is a streaming operator whose state must stay within a
// budget: state lives across epochs and is checkpointed whole, so it
// cannot spill, and outgrowing the budget fails the query with a
// StateTooLargeError naming id (its StatefulOps id).
type StateBudgeted interface {
	SetStateBudget(id string, b *MemoryBudget)
}

// StateTooLargeError says which streaming operator outgrew the budget.
type StateTooLargeError struct {
	ID    string // "window_aggregate-0"
	Held  int64  // bytes of state it would hold
	Limit int64  // the budget
	// MemoryLimit is the setting the budget is a share of (0: the same).
	MemoryLimit int64
	// Hint says what shrinks this operator's state.
	Hint string
}

func (e *StateTooLargeError) Error() string {
	s := fmt.Sprintf("%s holds %s of state, over the memory limit of %s; raise memory_limit", e.ID, FormatBytes(e.Held), FormatBytes(e.Limit))
	if e.MemoryLimit > e.Limit {
		s = fmt.Sprintf("%s holds %s of state, over the %s that memory_limit %s leaves for state; raise memory_limit",
			e.ID, FormatBytes(e.Held), FormatBytes(e.Limit), FormatBytes(e.MemoryLimit))
	}
	if e.Hint != "" {
		s += " or " + e.Hint
	}
	return s
}

// Unwrap makes errors.Is(err, ErrOverBudget) hold.
func (e *StateTooLargeError) Unwrap() error { return ErrOverBudget }

// SetMemoryBudgets gives b to every MemoryUser of root and of the build
// plans of its joins.
func SetMemoryBudgets(root *Stage, b *MemoryBudget) {
	if root == nil || b == nil {
		return
	}
	for _, in := range root.Inputs {
		SetMemoryBudgets(in, b)
	}
	for _, op := range root.Ops {
		if u, ok := op.(MemoryUser); ok {
			u.SetMemoryBudget(b)
		}
		if si, ok := op.(interface{ SideInputs() []*Stage }); ok {
			for _, st := range si.SideInputs() {
				SetMemoryBudgets(st, b)
			}
		}
	}
}
