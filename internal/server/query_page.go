package server

import (
	"context"

	"sluice/internal/sql"
)

// cursorBuffer is how many batches a paged SELECT may produce ahead of
// the page being read (engine.OpenRows' buffer); the cursor holds at
// most one more, read ahead to know whether rows follow.
const cursorBuffer = 2

// parseAuthorized parses one statement and checks the caller may run it.
func (s *Server) parseAuthorized(ctx context.Context, text string, parse func(string) (sql.Statement, error)) (sql.Statement, error) {
	st, err := parse(text)
	auditStatement(ctx, "", text, st)
	if err != nil {
		return nil, err
	}
	if err := s.authorizeStatement(ctx, st); err != nil {
		return nil, err
	}
	return st, nil
}

// queryPage runs one statement for a paging format and answers its first
// page of at most size rows. A SELECT streams: its query keeps running
// behind the cursor, reading the next page when asked, so a large result
// is never held whole; other statements run to the end first.
func (s *Server) queryPage(ctx context.Context, text string, size int, parse func(string) (sql.Statement, error)) (page, error) {
	st, err := s.parseAuthorized(ctx, text, parse)
	if err != nil {
		return page{}, err
	}
	rows, ok, err := s.eng.OpenRows(ctx, st, cursorBuffer)
	if err != nil {
		return page{}, s.timeoutErr(ctx, err)
	}
	if !ok {
		res, err := s.eng.ExecuteStatement(ctx, st)
		auditResult(ctx, res)
		if err != nil {
			return page{}, s.timeoutErr(ctx, err)
		}
		return s.cursors.firstResult(ctx, newResult(res), size)
	}
	p, err := s.cursors.first(ctx, rows.Schema(), rows, -1, size)
	return p, s.timeoutErr(ctx, err)
}
