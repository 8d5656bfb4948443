package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/engine/sparkstmt"
	"sluice/internal/exec"
	"sluice/internal/expr"
	"sluice/internal/physical"
	"sluice/internal/plan"
	"sluice/internal/sql"
)

// planQuery binds and optimizes a query.
func (e *Engine) planQuery(ctx context.Context, q *sql.Query) (plan.Node, error) {
	n, err := e.bindQuery(ctx, q)
	if err != nil {
		return nil, err
	}
	return plan.OptimizeContext(ctx, n)
}

func (e *Engine) bindQuery(ctx context.Context, q *sql.Query) (plan.Node, error) {
	return plan.NewBinder(ctx, tableResolver{e: e}).BindQuery(q)
}

// queryContext fixes now() for the whole statement and gives
// current_database() the session's database.
func (e *Engine) queryContext(ctx context.Context) context.Context {
	return expr.WithDatabase(expr.WithNow(ctx, e.now()), e.currentDB(ctx))
}

// WithUser names who runs the statements under ctx, for current_user();
// without it that is the process's operating-system user.
func WithUser(ctx context.Context, name string) context.Context {
	return expr.WithUser(ctx, name)
}

// runSelect runs a query to completion and returns its rows.
func (e *Engine) runSelect(ctx context.Context, q *sql.Query) (*Result, error) {
	ctx = e.queryContext(ctx)
	n, err := e.planQuery(ctx, q)
	if err != nil {
		return nil, err
	}
	batches, err := e.collect(ctx, n)
	if err != nil {
		return nil, err
	}
	return &Result{Schema: n.Schema(), Batches: batches}, nil
}

// compileOptions are the engine's settings for physical.Compile; ctx is
// the query context (see queryContext).
func (e *Engine) compileOptions(ctx context.Context) physical.Options {
	o := physical.Options{Parallelism: e.opts.Parallelism, Now: expr.Now(ctx)}
	if limit := e.memoryLimit(ctx); limit > 0 {
		o.Memory = exec.QueryBudget(limit, e.tempDir())
	}
	return o
}

// memoryLimit is the session's SET memory_limit (checked when set), else
// the engine's.
func (e *Engine) memoryLimit(ctx context.Context) int64 {
	v, ok := e.session(ctx).setting(sparkstmt.MemoryLimitKey)
	if !ok {
		return e.opts.MemoryLimit
	}
	n, _ := exec.ParseByteSize(v)
	return n
}

// collect runs a plan as one bounded epoch and gathers its output.
func (e *Engine) collect(ctx context.Context, n plan.Node) ([]arrow.RecordBatch, error) {
	opts := e.compileOptions(ctx)
	p, err := physical.Compile(n, opts)
	if err != nil {
		return nil, err
	}
	defer func() { e.spills.Add(opts.Memory.Spills()) }()
	listed, err := p.Prepare(ctx)
	if err != nil {
		return nil, err
	}
	out := exec.NewCollect()
	obs := e.observer(listed.Splits, listed.Bytes)
	var eobs exec.Observer
	if obs != nil {
		eobs = obs
	}
	if err := exec.Run(ctx, p.Root, exec.WatermarkEnd, out, eobs); err != nil {
		return nil, fmt.Errorf("running query: %w", err)
	}
	if obs != nil {
		obs.done()
	}
	return out.Batches(), nil
}

// progressObserver turns split events into Progress callbacks.
type progressObserver struct {
	fn         func(Progress)
	mu         sync.Mutex
	p          Progress
	rows       atomic.Int64
	filesTotal int
	bytesTotal int64
}

func (e *Engine) observer(files int, bytes int64) *progressObserver {
	if e.opts.Progress == nil {
		return nil
	}
	return &progressObserver{fn: e.opts.Progress, p: Progress{FilesTotal: files, BytesTotal: bytes}}
}

func (o *progressObserver) SplitStarted(id string, size int64) {}

func (o *progressObserver) SplitDone(id string, rows, bytes int64) {
	o.mu.Lock()
	o.p.FilesDone++
	o.p.BytesDone += bytes
	o.p.RowsRead += rows
	p := o.p
	o.mu.Unlock()
	o.fn(p)
}

func (o *progressObserver) done() {
	o.mu.Lock()
	p := o.p
	o.mu.Unlock()
	o.fn(p)
}
