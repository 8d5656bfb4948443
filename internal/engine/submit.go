package engine

import (
	"context"

	"sluice/internal/job"
	"sluice/internal/sql"
)

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
		named = e.StreamName(ctx, s) // it reads the catalog
	case *sql.StartStream:
		named = s.Name
	}
	return e.jobs.StartQuery(ctx, st.String(), named, func(ctx context.Context) (*Result, error) {
		return e.ExecuteStatement(ctx, st)
	}), nil
}

// Queries lists submitted queries, oldest first.
func (e *Engine) Queries() []job.QueryInfo[*Result] { return e.jobs.Queries() }

// Status reports one query; for a stream, its progress too.
func (e *Engine) Status(id string) (job.QueryInfo[*Result], *job.Status, error) {
	return e.jobs.Query(id)
}

// Cancel stops a query: a stream at its next epoch boundary, a batch
// query at once.
func (e *Engine) Cancel(id string) error { return e.jobs.Cancel(id) }

// Wait blocks until the query ends and returns its final info.
func (e *Engine) Wait(ctx context.Context, id string) (job.QueryInfo[*Result], error) {
	return e.jobs.Wait(ctx, id)
}
