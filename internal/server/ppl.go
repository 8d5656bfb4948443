package server

import (
	"errors"
	"net/http"
	"strings"

	"sluice/internal/ppl"
	"sluice/internal/sql"
)

// pplRoutes serve OpenSearch's PPL endpoint as /_plugins/_sql serves SQL:
// the same request body ({"query": "source=t | ..."}), formats (jdbc by
// default), cursors and errors. The query is PPL only; it runs as the
// SQL statement PPL '...' would.
func (s *Server) pplRoutes() {
	for _, prefix := range []string{"/_plugins/_ppl", "/_opendistro/_ppl"} {
		s.readRoute("POST "+prefix, s.limitQueries(s.handlePPL))
		s.readRoute("POST "+prefix+"/{$}", s.limitQueries(s.handlePPL))
		s.readRoute("POST "+prefix+"/_explain", s.limitQueries(s.handlePPLExplain))
	}
}

func (s *Server) handlePPL(w http.ResponseWriter, r *http.Request) {
	s.handleQuery(w, r, endpoint{parse: ppl.Statement, ppl: true})
}

// handlePPLExplain answers POST /_plugins/_ppl/_explain with the plan of
// the PPL query's translation, as /_plugins/_sql/_explain does.
func (s *Server) handlePPLExplain(w http.ResponseWriter, r *http.Request) {
	opts, err := explainOptionsOf(r)
	if err != nil {
		writePPLError(w, err)
		return
	}
	req, err := readRequest(r)
	if err != nil {
		writePPLError(w, err)
		return
	}
	if req.Query == "" {
		writePPLError(w, badRequest("the request has no query"))
		return
	}
	// The plan is the one the query would run: with the request's filter.
	parse, err := withFilter(endpoint{parse: ppl.Statement, ppl: true}, req.Filter)
	if err != nil {
		writePPLError(w, err)
		return
	}
	explain := func(text string) (sql.Statement, error) {
		st, err := parse(text)
		if err != nil {
			return nil, err
		}
		return &sql.Explain{StmtBase: sql.StmtBase{At: st.Pos(), Src: "EXPLAIN " + st.Text()}, Stmt: st}, nil
	}
	res, err := s.executeWith(s.requestSession(r, req), strings.TrimSuffix(req.Query, ";"), explain)
	if err != nil {
		writePPLError(w, err)
		return
	}
	writePlan(w, opts, res)
}

// classifyPPL maps PPL errors: syntax errors as the SQL ones
// (SyntaxCheckException), the others as binding errors.
func classifyPPL(err error) (errorBody, bool) {
	var pe *ppl.Error
	if !errors.As(err, &pe) {
		return errorBody{}, false
	}
	typ := "SemanticCheckException"
	if pe.Syntax {
		typ = "SyntaxCheckException"
	}
	return errorBody{Status: http.StatusBadRequest, Error: errorInfo{Reason: "Invalid Query", Details: err.Error(), Type: typ}}, true
}
