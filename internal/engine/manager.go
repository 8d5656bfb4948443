package engine

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"sluice/internal/sql"
)

// QueryInfo is the query manager's view of one submitted statement.
type QueryInfo struct {
	ID        string
	Statement string
	// Stream names the stream when the statement is INSERT STREAM or
	// START STREAM; its progress is in Streams().
	Stream   string
	State    string
	Started  time.Time
	Finished time.Time
	Result   *Result
	Error    string
}

type managedQuery struct {
	mu     sync.Mutex
	info   QueryInfo
	cancel context.CancelFunc
	done   chan struct{}
}

type manager struct {
	mu      sync.Mutex
	seq     int64
	queries map[string]*managedQuery
}

// Submit starts one statement in the background and returns its query
// id at once. Batch statements run to completion; streaming ones until
// cancelled (they then stop at an epoch boundary, resumable later).
func (e *Engine) Submit(ctx context.Context, statement string) (string, error) {
	st, err := sql.ParseOne(statement)
	if err != nil {
		return "", err
	}
	var named string
	switch s := st.(type) {
	case *sql.InsertStream:
		named = e.StreamName(ctx, s) // before qm.mu: it reads the catalog
	case *sql.StartStream:
		named = s.Name
	}
	e.qm.mu.Lock()
	if e.qm.queries == nil {
		e.qm.queries = map[string]*managedQuery{}
	}
	e.qm.seq++
	id := "q" + strconv.FormatInt(e.qm.seq, 10)
	qctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	mq := &managedQuery{cancel: cancel, done: make(chan struct{}),
		info: QueryInfo{ID: id, Statement: st.String(), State: StateWaiting, Started: e.now(), Stream: named}}
	e.qm.queries[id] = mq
	e.qm.mu.Unlock()
	go func() {
		defer close(mq.done)
		mq.mu.Lock()
		mq.info.State = StateRunning
		mq.mu.Unlock()
		res, err := e.ExecuteStatement(qctx, st)
		mq.mu.Lock()
		defer mq.mu.Unlock()
		mq.info.Finished = e.now()
		switch {
		case err != nil && qctx.Err() != nil:
			mq.info.State, mq.info.Error = StateCancelled, err.Error()
		case err != nil:
			mq.info.State, mq.info.Error = StateFailed, err.Error()
		case qctx.Err() != nil:
			mq.info.State, mq.info.Result = StateCancelled, res
		default:
			mq.info.State, mq.info.Result = StateSuccess, res
		}
	}()
	return id, nil
}

// Queries lists submitted queries, oldest first.
func (e *Engine) Queries() []QueryInfo {
	e.qm.mu.Lock()
	defer e.qm.mu.Unlock()
	out := make([]QueryInfo, 0, len(e.qm.queries))
	for _, q := range e.qm.queries {
		q.mu.Lock()
		out = append(out, q.info)
		q.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool {
		a, _ := strconv.Atoi(strings.TrimPrefix(out[i].ID, "q"))
		b, _ := strconv.Atoi(strings.TrimPrefix(out[j].ID, "q"))
		return a < b
	})
	return out
}

func (e *Engine) query(id string) (*managedQuery, error) {
	e.qm.mu.Lock()
	defer e.qm.mu.Unlock()
	q, ok := e.qm.queries[id]
	if !ok {
		return nil, fmt.Errorf("no query %s", id)
	}
	return q, nil
}

// Status reports one query; for a stream, its progress too.
func (e *Engine) Status(id string) (QueryInfo, *StreamStatus, error) {
	q, err := e.query(id)
	if err != nil {
		return QueryInfo{}, nil, err
	}
	q.mu.Lock()
	info := q.info
	q.mu.Unlock()
	if info.Stream == "" {
		return info, nil, nil
	}
	e.mu.Lock()
	rs := e.streams[strings.ToLower(info.Stream)]
	e.mu.Unlock()
	if rs == nil {
		return info, nil, nil
	}
	st := rs.snapshot()
	return info, &st, nil
}

// Cancel stops a query: a stream at its next epoch boundary, a batch
// query at once.
func (e *Engine) Cancel(id string) error {
	q, err := e.query(id)
	if err != nil {
		return err
	}
	q.cancel()
	return nil
}

// Wait blocks until the query ends and returns its final info.
func (e *Engine) Wait(ctx context.Context, id string) (QueryInfo, error) {
	q, err := e.query(id)
	if err != nil {
		return QueryInfo{}, err
	}
	select {
	case <-q.done:
	case <-ctx.Done():
		return QueryInfo{}, ctx.Err()
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.info, nil
}
