package job

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// QueryInfo is the Manager's view of one submitted statement; R is the
// engine's result.
type QueryInfo[R any] struct {
	ID        string
	Statement string
	// Stream names the stream when the statement is INSERT STREAM or
	// START STREAM; its progress is in the stream's Run.
	Stream   string
	State    string
	Started  time.Time
	Finished time.Time
	Result   R
	Error    string
}

type managedQuery[R any] struct {
	mu     sync.Mutex
	info   QueryInfo[R]
	cancel context.CancelFunc
	done   chan struct{}
}

// queries is the registry of submitted queries, by id ("q1", "q2", ...).
type queries[R any] struct {
	mu   sync.Mutex
	seq  int64
	byID map[string]*managedQuery[R]
}

// StartQuery registers a statement (its text as reported, and the stream it
// runs, if any) and runs it with run in a goroutine of its own, returning
// its id at once. run's ctx keeps ctx's values but not its cancellation:
// only Cancel cancels it. The query ends success, failed or cancelled
// (cancelled when Cancel came first, whether or not run failed).
func (m *Manager[R]) StartQuery(ctx context.Context, statement, stream string, run func(context.Context) (R, error)) string {
	m.qs.mu.Lock()
	m.qs.seq++
	id := "q" + strconv.FormatInt(m.qs.seq, 10)
	qctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	mq := &managedQuery[R]{cancel: cancel, done: make(chan struct{}),
		info: QueryInfo[R]{ID: id, Statement: statement, State: StateWaiting, Started: m.now(), Stream: stream}}
	m.qs.byID[id] = mq
	m.qs.mu.Unlock()
	go func() {
		defer close(mq.done)
		mq.mu.Lock()
		mq.info.State = StateRunning
		mq.mu.Unlock()
		res, err := run(qctx)
		mq.mu.Lock()
		defer mq.mu.Unlock()
		mq.info.Finished = m.now()
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
	return id
}

// Queries lists submitted queries, oldest first.
func (m *Manager[R]) Queries() []QueryInfo[R] {
	m.qs.mu.Lock()
	defer m.qs.mu.Unlock()
	out := make([]QueryInfo[R], 0, len(m.qs.byID))
	for _, q := range m.qs.byID {
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

func (m *Manager[R]) query(id string) (*managedQuery[R], error) {
	m.qs.mu.Lock()
	defer m.qs.mu.Unlock()
	q, ok := m.qs.byID[id]
	if !ok {
		return nil, fmt.Errorf("no query %s", id)
	}
	return q, nil
}

// Query reports one query; for a stream that has run here, its status
// too (nil otherwise).
func (m *Manager[R]) Query(id string) (QueryInfo[R], *Status, error) {
	q, err := m.query(id)
	if err != nil {
		return QueryInfo[R]{}, nil, err
	}
	q.mu.Lock()
	info := q.info
	q.mu.Unlock()
	if info.Stream == "" {
		return info, nil, nil
	}
	r := m.Current(info.Stream)
	if r == nil {
		return info, nil, nil
	}
	st := r.Snapshot()
	return info, &st, nil
}

// Cancel stops a query: a stream at its next epoch boundary, a batch
// query at once.
func (m *Manager[R]) Cancel(id string) error {
	q, err := m.query(id)
	if err != nil {
		return err
	}
	q.cancel()
	return nil
}

// Wait blocks until the query ends and returns its final info.
func (m *Manager[R]) Wait(ctx context.Context, id string) (QueryInfo[R], error) {
	q, err := m.query(id)
	if err != nil {
		return QueryInfo[R]{}, err
	}
	select {
	case <-q.done:
	case <-ctx.Done():
		return QueryInfo[R]{}, ctx.Err()
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.info, nil
}
