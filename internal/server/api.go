package server

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"sluice/internal/engine"
)

// APIStatementPath is Sluice's own endpoint for `sluice sql --server`:
// one statement in, its whole result out, types and messages intact
// (the plugin's shapes have no room for a message next to rows, nor for
// Arrow's types).
//
//	POST /api/v1/statement {"query": "SELECT 1"}
//	→ {"statement": "SELECT 1", "message": "", "arrow": "<base64 Arrow IPC stream>"}
//
// arrow is absent when the statement has no rows. Errors have the
// plugin's error body and status.
const APIStatementPath = "/api/v1/statement"

// StatementResponse is the body of a successful APIStatementPath call.
type StatementResponse struct {
	Statement string `json:"statement"`
	Message   string `json:"message,omitempty"`
	// Arrow is the rows as an Arrow IPC stream, base64 (std encoding).
	Arrow string `json:"arrow,omitempty"`
}

func (s *Server) apiRoutes() {
	s.mux.HandleFunc("POST "+APIStatementPath, s.handleStatement)
}

func (s *Server) handleStatement(w http.ResponseWriter, r *http.Request) {
	req, err := readRequest(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if req.Query == "" {
		writeError(w, badRequest("the request has no query"))
		return
	}
	res, err := s.execute(r.Context(), strings.TrimSuffix(req.Query, ";"))
	if err != nil {
		writeError(w, err)
		return
	}
	out := StatementResponse{Statement: res.Statement, Message: res.Message}
	if res.Schema != nil {
		b, err := encodeArrow(res)
		if err != nil {
			writeError(w, err)
			return
		}
		out.Arrow = base64.StdEncoding.EncodeToString(b)
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = writeJSON(w, out, false)
}

func encodeArrow(res *engine.Result) ([]byte, error) {
	var buf bytes.Buffer
	wr := ipc.NewWriter(&buf, ipc.WithSchema(res.Schema))
	for _, b := range res.Batches {
		if b == nil {
			continue
		}
		if err := wr.Write(b); err != nil {
			return nil, fmt.Errorf("encoding result: %w", err)
		}
	}
	if err := wr.Close(); err != nil {
		return nil, fmt.Errorf("encoding result: %w", err)
	}
	return buf.Bytes(), nil
}
