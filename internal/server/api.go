package server

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"sluice/internal/ppl"
	"sluice/internal/sql"
)

// APIStatementPath is Sluice's own endpoint for `sluice sql --server`:
// one statement in, its whole result out, types and messages intact
// (the plugin's shapes have no room for a message next to rows, nor for
// Arrow's types).
//
//	POST /api/v1/statement {"query": "SELECT 1"}  ("lang": "ppl" for a PPL query)
//	→ {"statement": "SELECT 1", "message": "", "arrow": "<base64 Arrow IPC stream>"}
//
// arrow is absent when the statement has no rows. A result over the
// server's --max-rows comes in pages: the response has a cursor, and
// {"cursor": "..."} answers the next page (its own cursor while more
// follow). Errors have the plugin's error body and status.
const APIStatementPath = "/api/v1/statement"

// StatementResponse is the body of a successful APIStatementPath call.
type StatementResponse struct {
	Statement string `json:"statement"`
	Message   string `json:"message,omitempty"`
	// Arrow is the rows as an Arrow IPC stream, base64 (std encoding).
	Arrow string `json:"arrow,omitempty"`
	// Cursor fetches the next page of rows; "" on the last.
	Cursor string `json:"cursor,omitempty"`
	// SessionID names the session the statement ran in: the request's
	// own, or the new one it started. The next request sends it back to
	// keep its USE and SET.
	SessionID string `json:"sessionId,omitempty"`
}

func (s *Server) apiRoutes() {
	s.readRoute("POST "+APIStatementPath, s.limitQueries(s.handleStatement))
}

func (s *Server) handleStatement(w http.ResponseWriter, r *http.Request) {
	req, err := readRequest(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if req.Cursor != "" {
		auditFetch(r.Context())
		p, ok, err := s.cursors.next(r.Context(), req.Cursor)
		if !ok {
			writeError(w, badRequest("cursor "+req.Cursor+" is not open (finished, closed or expired)"))
			return
		}
		if err != nil {
			writeError(w, s.timeoutErr(r.Context(), err))
			return
		}
		defer p.release()
		s.writeStatementPage(w, StatementResponse{}, p)
		return
	}
	if req.Query == "" {
		writeError(w, badRequest("the request has no query"))
		return
	}
	parse := sql.ParseOne
	if strings.EqualFold(req.Lang, "ppl") {
		parse = ppl.Statement
	}
	ctx, sid := s.withSession(r, req.SessionID)
	st, err := s.parseAuthorized(ctx, strings.TrimSuffix(req.Query, ";"), parse)
	if err != nil {
		writeError(w, err)
		return
	}
	// A SELECT streams behind its cursor, as on /_plugins/_sql.
	rows, ok, err := s.eng.OpenRows(ctx, st, cursorBuffer)
	if err != nil {
		writeError(w, s.timeoutErr(ctx, err))
		return
	}
	if ok {
		p, err := s.cursors.first(ctx, rows.Schema(), rows, -1, s.limits.MaxRows)
		if err != nil {
			writeError(w, s.timeoutErr(ctx, err))
			return
		}
		defer p.release()
		s.writeStatementPage(w, StatementResponse{Statement: st.String(), SessionID: sid}, p)
		return
	}
	res, err := s.eng.ExecuteStatement(ctx, st)
	auditResult(ctx, res)
	if err != nil {
		writeError(w, s.timeoutErr(ctx, err))
		return
	}
	out := StatementResponse{Statement: res.Statement, Message: res.Message, SessionID: sid}
	if res.Schema == nil {
		out.Statement, out.Message = redactSecrets(out.Statement), redactSecrets(out.Message)
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		_ = writeJSON(w, out, false)
		return
	}
	p, err := s.cursors.firstResult(r.Context(), newResult(res), s.limits.MaxRows)
	if err != nil {
		writeError(w, err)
		return
	}
	defer p.release()
	s.writeStatementPage(w, out, p)
}

// writeStatementPage answers out with page p's rows and cursor.
func (s *Server) writeStatementPage(w http.ResponseWriter, out StatementResponse, p page) {
	b, err := encodeArrow(p)
	if err != nil {
		writeError(w, err)
		return
	}
	auditPage(w, p)
	out.Arrow, out.Cursor = base64.StdEncoding.EncodeToString(b), p.cursor
	out.Statement, out.Message = redactSecrets(out.Statement), redactSecrets(out.Message)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = writeJSON(w, out, false)
}

// encodeArrow writes rows p.from..p.to-1 as one Arrow IPC stream.
func encodeArrow(p page) ([]byte, error) {
	var buf bytes.Buffer
	wr := ipc.NewWriter(&buf, ipc.WithSchema(p.res.schema))
	at := 0
	for _, b := range p.res.batches {
		if b == nil {
			continue
		}
		n := int(b.NumRows())
		lo, hi := max(p.from-at, 0), min(p.to-at, n)
		at += n
		if lo >= hi {
			continue
		}
		part := b
		if lo > 0 || hi < n {
			part = b.NewSlice(int64(lo), int64(hi))
		}
		err := wr.Write(part)
		if part != b {
			part.Release()
		}
		if err != nil {
			return nil, fmt.Errorf("encoding result: %w", err)
		}
	}
	if err := wr.Close(); err != nil {
		return nil, fmt.Errorf("encoding result: %w", err)
	}
	return buf.Bytes(), nil
}
