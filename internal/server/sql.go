package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"sluice/internal/sql"
)

// sqlRequest is the body of POST /_plugins/_sql: a query, or the cursor
// of the page before.
type sqlRequest struct {
	Query     string          `json:"query"`
	Lang      string          `json:"lang"` // /api/v1/statement: "ppl" for a PPL query
	Cursor    string          `json:"cursor"`
	FetchSize json.RawMessage `json:"fetch_size"`
	// SessionID names the client's session (its USE and SET); absent,
	// the request starts from the server's defaults.
	SessionID string `json:"sessionId"`
	// Filter is an OpenSearch DSL query the source table's rows must
	// match (filter.go).
	Filter json.RawMessage `json:"filter"`
	// Parameters bind the SQL query's ? placeholders (params.go).
	Parameters []sqlParameter `json:"parameters"`
}

// maxBody bounds a request body; SQL text is small.
const maxBody = 16 << 20

func (s *Server) sqlRoutes() {
	for _, prefix := range []string{"/_plugins/_sql", "/_opendistro/_sql"} {
		s.readRoute("POST "+prefix, s.limitQueries(s.handleSQL))
		s.readRoute("POST "+prefix+"/{$}", s.limitQueries(s.handleSQL))
		s.readRoute("POST "+prefix+"/close", s.handleClose)
		s.readRoute("POST "+prefix+"/_explain", s.limitQueries(s.handleExplain))
	}
}

func readRequest(r *http.Request) (sqlRequest, error) {
	var req sqlRequest
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return req, bodyError(err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&req); err != nil {
		return req, badRequest("request body is not a JSON object with a query: " + err.Error())
	}
	req.Query = strings.TrimSpace(req.Query)
	auditLang(r.Context(), req.Lang)
	return req, nil
}

// fetchSize reads fetch_size, a number or a numeric string; 0 when absent.
func (q sqlRequest) fetchSize() (int, error) {
	raw := strings.Trim(string(q.FetchSize), `" `)
	if raw == "" || raw == "null" {
		return 0, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 {
		return 0, badRequest(fmt.Sprintf("fetch_size %s: want a number of rows, 0 or more", q.FetchSize))
	}
	return n, nil
}

// handleSQL runs one statement, or fetches the next page of a cursor.
func (s *Server) handleSQL(w http.ResponseWriter, r *http.Request) {
	s.handleQuery(w, r, endpoint{parse: sql.ParseOne})
}

// endpoint is what differs between the SQL and the PPL endpoints: the
// parser of the language and, for PPL, the plugin's PPL response rules.
type endpoint struct {
	parse func(string) (sql.Statement, error)
	// ppl: the jdbc format is PPL's (its type names, no status), and
	// fetch_size caps the rows instead of opening a cursor.
	ppl bool
}

// handleQuery is handleSQL with the parser of the endpoint's language.
func (s *Server) handleQuery(w http.ResponseWriter, r *http.Request, ep endpoint) {
	parse := ep.parse
	fail := writeError
	if ep.ppl {
		fail = writePPLError
	}
	f, err := formatFor(r)
	if err != nil {
		fail(w, badRequest(err.Error()))
		return
	}
	req, err := readRequest(r)
	if err != nil {
		fail(w, err)
		return
	}
	if ep.ppl {
		switch ff := f.(type) {
		case jdbcFormat:
			f = pplFormat{pretty: ff.pretty}
		case jsonFormat:
			// The plugin answers PPL's json as its jdbc: one formatter.
			f = pplFormat{pretty: ff.pretty}
		}
		if len(req.FetchSize) == 0 && r.URL.Query().Has("fetch_size") {
			// The plugin reads PPL's fetch_size from the URL too.
			req.FetchSize = json.RawMessage(strconv.Quote(r.URL.Query().Get("fetch_size")))
		}
	}
	if parse, err = withFilter(ep, req.Filter); err != nil {
		fail(w, err)
		return
	}
	var p page
	switch {
	case ep.ppl && req.Cursor != "":
		fail(w, badRequest("the PPL endpoint has no cursors: fetch_size caps the rows of one response"))
		return
	case req.Cursor != "":
		auditFetch(r.Context())
		var ok bool
		if p, ok, err = s.cursors.next(r.Context(), req.Cursor); !ok {
			fail(w, badRequest("cursor "+req.Cursor+" is not open (finished, closed or expired)"))
			return
		}
		if err != nil {
			fail(w, s.timeoutErr(r.Context(), err))
			return
		}
		f = jdbcFormat{} // pages are jdbc, whatever the format asked
	case req.Query == "":
		fail(w, badRequest("the request has no query"))
		return
	default:
		size, err := req.fetchSize()
		if err != nil {
			fail(w, err)
			return
		}
		text := strings.TrimSuffix(req.Query, ";")
		if text, err = bindRequest(ep, text, req.Parameters); err != nil {
			fail(w, err)
			return
		}
		if ep.ppl && size > 0 {
			// PPL's fetch_size is a head N on top of the query (the
			// plugin's AstStatementBuilder), never a cursor.
			text += "\n| head " + strconv.Itoa(size)
		}
		ctx := s.requestSession(r, req)
		if !ep.ppl {
			if rs, ok, err := s.describeTables(ctx, text); ok {
				if err != nil {
					fail(w, err)
					return
				}
				p = wholePage(rs)
				break
			}
		}
		if pg, ok := f.(pageable); ok && pg.pages() {
			if p, err = s.queryPage(ctx, text, s.pageSize(size), parse); err != nil {
				fail(w, err)
				return
			}
			break
		}
		res, err := s.executeWith(ctx, text, parse)
		if err != nil {
			fail(w, err)
			return
		}
		rs := newResult(res)
		if err := s.checkRows(rs.total); err != nil {
			fail(w, err)
			return
		}
		p = wholePage(rs)
	}
	defer p.release()
	auditPage(w, p)
	w.Header().Set("Content-Type", f.contentType())
	if err := f.write(w, p); err != nil {
		s.log.Warn("writing a response", "error", err.Error())
	}
}

// handleClose closes a cursor: {"cursor": "..."} → {"succeeded": true}.
func (s *Server) handleClose(w http.ResponseWriter, r *http.Request) {
	req, err := readRequest(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if req.Cursor == "" {
		writeError(w, badRequest("the request has no cursor"))
		return
	}
	if !s.cursors.close(req.Cursor) {
		writeError(w, badRequest("cursor "+req.Cursor+" is not open (finished, closed or expired)"))
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = writeJSON(w, map[string]bool{"succeeded": true}, false)
}
