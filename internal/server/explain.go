package server

import (
	"net/http"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// handleExplain answers POST /_plugins/_sql/_explain with the engine's
// EXPLAIN of the query. The plugin answers with OpenSearch DSL; Sluice
// has no DSL to show, so the body is its plan as text, one string per
// line:
//
//	{"plan": ["Project ...", "  Scan logs ..."]}
func (s *Server) handleExplain(w http.ResponseWriter, r *http.Request) {
	req, err := readRequest(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if req.Query == "" {
		writeError(w, badRequest("the request has no query"))
		return
	}
	q := strings.TrimSuffix(req.Query, ";")
	if !strings.HasPrefix(strings.ToUpper(q), "EXPLAIN") {
		q = "EXPLAIN " + q
	}
	res, err := s.execute(s.requestSession(r, req), q)
	if err != nil {
		writeError(w, err)
		return
	}
	writePlan(w, r, res)
}

// writePlan writes an EXPLAIN result as {"plan": [lines]}.
func writePlan(w http.ResponseWriter, r *http.Request, res *engine.Result) {
	var lines []string
	if res.Schema != nil {
		newResult(res).each(0, 1<<62, func(b arrow.RecordBatch, i int) {
			for c := 0; c < int(b.NumCols()); c++ {
				if t, ok := types.Text(b.Column(c), i); ok {
					lines = append(lines, strings.Split(strings.TrimRight(t, "\n"), "\n")...)
				}
			}
		})
	} else {
		lines = strings.Split(res.Message, "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = writeJSON(w, map[string][]string{"plan": lines}, r.URL.Query().Has("pretty"))
}
