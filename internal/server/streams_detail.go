package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/catalog"
	"sluice/internal/engine"
)

// A stream's plan and its dead letters, for the console's plan view and
// dead-letter browser (read role, like the rest of the streams API):
//
//	GET /api/v1/streams/{name}/plan         → {"name", "plan": [line, ...]}
//	GET /api/v1/streams/{name}/dead_letters → {"name", "location", "rows": [{"file", "line", "reason", "raw", "written"}, ...]}
func (s *Server) streamDetailRoutes() {
	s.readRoute("GET "+APIStreamsPath+"/{name}/plan", s.handleStreamPlan)
	s.readRoute("GET "+APIStreamsPath+"/{name}/dead_letters", s.handleDeadLetters)
}

// deadLettersShown is how many bad rows the browser shows by default,
// deadLettersMax the most a request may ask (?limit=).
const (
	deadLettersShown = 100
	deadLettersMax   = 1000
)

// handleStreamPlan is EXPLAIN of the stream's statement (EXPLAIN INSERT
// STREAM, or EXPLAIN CREATE MATERIALIZED VIEW for a view), run in the
// caller's session: the streaming plan with its state ids, nothing opened.
func (s *Server) handleStreamPlan(w http.ResponseWriter, r *http.Request) {
	in, ok := s.streamOr404(w, r)
	if !ok {
		return
	}
	res, err := s.execute(s.freshSession(r), "EXPLAIN "+in.Query)
	if err != nil {
		writeError(w, err)
		return
	}
	lines := []string{}
	for _, b := range res.Batches {
		if b.NumCols() == 0 {
			continue
		}
		col, ok := b.Column(0).(*array.String)
		if !ok {
			continue
		}
		for i := 0; i < col.Len(); i++ {
			lines = append(lines, col.Value(i))
		}
	}
	writeOK(w, map[string]any{"name": in.Name, "plan": lines})
}

func (s *Server) handleDeadLetters(w http.ResponseWriter, r *http.Request) {
	in, ok := s.streamOr404(w, r)
	if !ok {
		return
	}
	limit := deadLettersShown
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			writeError(w, &requestError{msg: "limit must be a positive whole number"})
			return
		}
		limit = min(n, deadLettersMax)
	}
	loc, rows, err := s.eng.DeadLetters(r.Context(), in.StreamName, limit)
	if err != nil {
		writeError(w, err)
		return
	}
	if rows == nil {
		rows = []engine.DeadLetterRow{}
	}
	writeOK(w, map[string]any{"name": in.Name, "location": redactLocation(loc), "rows": rows})
}

// streamOr404 finds the stream or view of the request's {name}, or
// answers 404 (or the error) and returns false.
func (s *Server) streamOr404(w http.ResponseWriter, r *http.Request) (engine.StreamInfo, bool) {
	name := r.PathValue("name")
	in, err := s.eng.Stream(r.Context(), name)
	if errors.Is(err, catalog.ErrNotFound) {
		writeError(w, &notFoundError{msg: "no stream or materialized view " + strings.TrimSpace(name)})
		return in, false
	}
	if err != nil {
		writeError(w, err)
		return in, false
	}
	return in, true
}
