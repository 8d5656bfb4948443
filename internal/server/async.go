package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/engine"
	"sluice/internal/job"
	"sluice/internal/ppl"
	"sluice/internal/sql"
)

// AsyncQueryPath is the OpenSearch SQL plugin's async query API:
//
//	POST   /_plugins/_async_query {"datasource": "...", "lang": "sql", "query": "..."}
//	       → 201 {"queryId": "...", "sessionId": "..."}
//	GET    /_plugins/_async_query/{queryId}
//	       → {"status": "RUNNING"}, or {"status": "SUCCESS", "schema", "datarows", "total", "size"},
//	         or {"status": "FAILED", "error": "..."}
//	DELETE /_plugins/_async_query/{queryId} → 204
//
// A batch statement runs to its end; a streaming one (INSERT STREAM,
// START STREAM, CREATE MATERIALIZED VIEW with auto_refresh) is RUNNING as
// long as its stream runs, and DELETE stops the stream at its epoch
// boundary. Statuses and results are kept in <data dir>/queries and
// survive restarts until Options.QueryRetention after the query ended.
const AsyncQueryPath = "/_plugins/_async_query"

// asyncRequest is the body of a submission.
type asyncRequest struct {
	Datasource string `json:"datasource"`
	Lang       string `json:"lang"`
	Query      string `json:"query"`
	SessionID  string `json:"sessionId"`
	// Filter and Parameters are the sync endpoints' (sqlRequest).
	Filter     json.RawMessage `json:"-"`
	Parameters []sqlParameter  `json:"-"`
}

// asyncQueries runs the async queries of one server.
type asyncQueries struct {
	store *asyncStore
	eng   *engine.Engine

	ctx    context.Context // cancelled by stop: batch queries in flight
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	running map[string]*runningAsync // batch queries in flight, by id
}

type runningAsync struct {
	cancel    context.CancelFunc
	cancelled bool          // by DELETE, not by the server stopping
	done      chan struct{} // closed when the statement returned
}

func (s *Server) asyncRoutes() {
	// Submitting is open to read users: the statement itself is
	// authorized (a read user may run a SELECT, not DDL). A query is its
	// owner's (asyncRecord), so a read user may read and cancel its own.
	s.readRoute("POST "+AsyncQueryPath, s.limitQueries(s.handleAsyncSubmit))
	s.readRoute("GET "+AsyncQueryPath+"/{id}", s.handleAsyncGet)
	s.readRoute("DELETE "+AsyncQueryPath+"/{id}", s.audited(s.handleAsyncCancel))
}

// startAsync opens the query store and starts watching its streaming
// queries. Batch queries that were running when the server last stopped
// cannot be resumed (they may have written half their rows): they are
// FAILED.
func (s *Server) startAsync(retention time.Duration) error {
	store, err := openAsyncStore(s.opts.DataDir+"/queries", retention, s.log)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.async = &asyncQueries{store: store, eng: s.eng, ctx: ctx, cancel: cancel, running: map[string]*runningAsync{}}
	now := time.Now().UTC()
	for _, r := range store.all() {
		if r.finished() || r.Stream != "" && r.Status == asyncRunning {
			continue
		}
		r.Status, r.Error, r.Finished = asyncFailed, "the server stopped before the query finished", now
		if err := store.put(r); err != nil {
			return err
		}
	}
	s.async.watch(s)
	return nil
}

// stopAsync stops watching streams (before the scheduler stops them, so
// a shutdown does not read as their end) and cancels batch queries.
func (s *Server) stopAsync() {
	if s.async == nil {
		return
	}
	s.async.cancel()
	done := make(chan struct{})
	go func() {
		s.async.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.log.Warn("async queries still running at shutdown; they read FAILED on the next start")
	}
}

// watch follows every RUNNING streaming query until the server stops,
// and sweeps expired queries.
func (a *asyncQueries) watch(s *Server) {
	sweepEvery := time.Minute
	if r := a.store.retention; r > 0 && r/2 < sweepEvery {
		sweepEvery = max(r/2, 10*time.Millisecond)
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		lastSweep := time.Now()
		for {
			select {
			case <-a.ctx.Done():
				return
			case <-tick.C:
			}
			for _, r := range a.store.all() {
				if r.Status == asyncRunning && r.Stream != "" {
					a.follow(a.ctx, r)
				}
			}
			if time.Since(lastSweep) >= sweepEvery {
				a.store.sweep(time.Now())
				lastSweep = time.Now()
			}
		}
	}()
}

// follow moves a streaming query on from RUNNING when its stream ended.
// The rule: RUNNING while the stream runs in this server (again after a
// restart, since the server resumes it); SUCCESS when a stream with
// trigger once or available_now ended by itself; CANCELLED when it was
// stopped (DELETE, STOP STREAM, ALTER ... auto_refresh = false) or
// dropped; FAILED when it failed, or did not resume after a restart.
func (a *asyncQueries) follow(ctx context.Context, r asyncRecord) {
	info, err := a.eng.Stream(ctx, r.Stream)
	status, msg, errText := "", "", ""
	st := info.Status
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		status, errText = asyncCancelled, fmt.Sprintf("%s %s was dropped", r.StreamKind, r.Stream)
	case err != nil:
		return
	case st.State == job.StateRunning, st.State == job.StateRetrying:
		return
	case st.State == job.StateFailed:
		status, errText = asyncFailed, st.LastError
	case st.State == "stopped" && info.Desired == job.DesiredRunning:
		// Not run here although it should run: its resume failed.
		status, errText = asyncFailed, fmt.Sprintf("%s %s is not running: it did not resume when the server started", r.StreamKind, r.Stream)
	case st.Trigger == "once" || st.Trigger == "available_now":
		status = asyncSuccess
	default:
		status = asyncCancelled
	}
	if status != asyncFailed {
		msg = st.Stopped(info.StreamName)
	}
	_, _ = a.store.update(r.ID, func(r *asyncRecord) {
		r.Status, r.Error, r.Finished = status, errText, time.Now().UTC()
		if msg != "" {
			r.Message = msg
		}
	})
}

func (s *Server) handleAsyncSubmit(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		writeError(w, badRequest("reading request body: "+err.Error()))
		return
	}
	req, err := parseAsyncRequest(body)
	if err != nil {
		writeError(w, err)
		return
	}
	lang, ep := "sql", endpoint{parse: sql.ParseOne}
	if req.Lang == "ppl" {
		lang, ep = "ppl", endpoint{parse: ppl.Statement, ppl: true}
	}
	text := strings.TrimSuffix(strings.TrimSpace(req.Query), ";")
	if text == "" {
		writeError(w, badRequest("the request has no query"))
		return
	}
	if text, err = bindRequest(ep, text, req.Parameters); err != nil {
		writeError(w, err)
		return
	}
	parse, err := withFilter(ep, req.Filter)
	if err != nil {
		writeError(w, err)
		return
	}
	st, err := parse(text)
	auditStatement(r.Context(), lang, text, st)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := s.authorizeStatement(r.Context(), st); err != nil {
		writeError(w, err)
		return
	}
	// The query runs in the session it names (its USE and SET), or a new
	// one whose id the answer gives back.
	p, _ := principalFrom(r.Context())
	session, sess := s.sessions.get(req.SessionID, p)
	rec := asyncRecord{ID: newQueryID(), SessionID: session, Datasource: req.Datasource, Lang: lang,
		Owner: s.asyncOwner(r), Statement: st.String(), Status: asyncWaiting, Submitted: time.Now().UTC()}
	rec.Stream, rec.StreamKind = streamOf(engine.WithSession(r.Context(), sess), s.eng, st)
	if err := s.async.store.put(rec); err != nil {
		writeError(w, err)
		return
	}
	// The query keeps its slot until it ends, not until this response.
	s.async.run(s, rec, st, sess, detachQuerySlot(r.Context()), s.auditAsync(r.Context(), rec))
	s.log.Info("async query submitted", "query", rec.ID, "session", rec.SessionID, "stream", rec.Stream)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(http.StatusCreated)
	_ = writeJSON(w, map[string]string{"queryId": rec.ID, "sessionId": rec.SessionID}, false)
}

// asyncOwner is who a submission belongs to: the caller, with
// authentication on; nobody (every caller is the anonymous admin) without.
func (s *Server) asyncOwner(r *http.Request) string {
	if s.auth == nil {
		return ""
	}
	p, _ := principalFrom(r.Context())
	return p.name
}

// streamOf names the stream a streaming statement starts when run under
// ctx (its session's database qualifies the table): a stream's name, or
// a view's, with its kind; "" for a batch statement.
func streamOf(ctx context.Context, eng *engine.Engine, st sql.Statement) (name, kind string) {
	switch s := st.(type) {
	case *sql.InsertStream:
		return eng.StreamName(ctx, s), engine.KindStream
	case *sql.StartStream:
		return s.Name, engine.KindStream
	case *sql.CreateMaterializedView:
		if v, ok := s.With.Get("auto_refresh"); ok && strings.EqualFold(v.Value, "true") {
			return s.Name, engine.KindView
		}
	}
	return "", ""
}

// run executes the statement in the background.
// The statement runs under the server's context, not the request's (which
// ends with the answer), in the client's session sess.
// ended logs its end to the audit log.
func (a *asyncQueries) run(s *Server, rec asyncRecord, st sql.Statement, sess *engine.Session, release func(), ended func(asyncRecord, error)) {
	ctx, cancel := context.WithTimeout(engine.WithSession(a.ctx, sess), s.limits.QueryTimeout)
	ra := &runningAsync{cancel: cancel, done: make(chan struct{})}
	a.mu.Lock()
	a.running[rec.ID] = ra
	a.mu.Unlock()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer release()
		defer cancel()
		var out asyncOutcome
		var err error
		if rec.Stream == "" {
			// A streaming statement stays WAITING until its stream started.
			_, _ = a.store.update(rec.ID, func(r *asyncRecord) { r.Status = asyncRunning })
			out, err = s.runAsyncBatch(ctx, rec.ID, st)
			if out.drain != nil {
				defer out.drain() // after the outcome is recorded, before the slot is released
			}
		} else {
			var res *engine.Result
			if res, err = a.eng.ExecuteStatement(ctx, st); err == nil {
				out.message = res.Message
			}
		}
		err = s.timeoutErr(ctx, err)
		a.mu.Lock()
		delete(a.running, rec.ID)
		byUser := ra.cancelled
		a.mu.Unlock()
		defer close(ra.done)
		now := time.Now().UTC()
		var limit *timeoutError
		_, uerr := a.store.update(rec.ID, func(r *asyncRecord) {
			switch {
			case err != nil && byUser:
				r.Status, r.Error, r.Finished = asyncCancelled, err.Error(), now
			case err != nil && ctx.Err() != nil && !errors.As(err, &limit):
				r.Status, r.Error, r.Finished = asyncFailed, "the server stopped before the query finished", now
			case err != nil:
				r.Status, r.Error, r.Finished = asyncFailed, err.Error(), now
			case rec.Stream != "":
				r.Status, r.Message = asyncRunning, out.message // while its stream runs
			default:
				r.Status, r.Finished, r.Message = asyncSuccess, now, out.message
				r.HasResult, r.Rows = out.hasResult, out.rows
			}
		})
		if uerr != nil {
			s.log.Error("recording an async query", "query", rec.ID, "error", uerr.Error())
		}
		if end, ok := a.store.get(rec.ID); ok {
			ended(end, err)
		}
		if err != nil {
			s.log.Info("async query failed", "query", rec.ID, "error", err.Error())
		}
	}()
}

// asyncResponse is the body of GET: status, then the rows (the jdbc
// format's schema, datarows, total and size) or the error.
type asyncResponse struct {
	Status   string              `json:"status"`
	Schema   []column            `json:"schema,omitempty"`
	Datarows [][]json.RawMessage `json:"datarows,omitempty"`
	Total    *int                `json:"total,omitempty"`
	Size     *int                `json:"size,omitempty"`
	Error    string              `json:"error,omitempty"`
	// Stream names the stream a streaming query runs (Sluice's own field).
	Stream string `json:"stream,omitempty"`
}

// asyncSchema is a result's schema as the plugin's async GET names its
// types: AsyncQueryResultResponseFormatter writes ExprCoreType's own
// names in lower case (string, integer, long, struct, array) for SQL and
// PPL alike (AsyncQueryResult is built with the SQL LangSpec), never the
// jdbc format's legacy keyword, object and nested.
func asyncSchema(s *arrow.Schema) []column { return schemaOf(s, false) }

func (s *Server) handleAsyncGet(w http.ResponseWriter, r *http.Request) {
	rec, ok := s.asyncRecord(w, r)
	if !ok {
		return
	}
	out := asyncResponse{Status: rec.Status, Stream: rec.Stream}
	switch {
	case rec.Status == asyncFailed || rec.Status == asyncCancelled && rec.Error != "":
		out.Error = rec.Error
	case rec.Status == asyncSuccess || rec.Status == asyncCancelled:
		var res *result
		if rec.HasResult {
			var err error
			if res, err = s.async.store.readResult(rec.ID); err != nil {
				writeError(w, err)
				return
			}
		} else {
			res = messageResult(rec.Message)
		}
		p := wholePage(res)
		rows := datarows(p)
		n := len(rows)
		out.Schema, out.Datarows, out.Total, out.Size = asyncSchema(res.schema), rows, &res.total, &n
		if out.Datarows == nil {
			out.Datarows = [][]json.RawMessage{}
		}
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = writeJSON(w, out, false)
}

// handleAsyncCancel cancels a query: a batch one at once, a streaming one
// by stopping its stream at its next epoch boundary (the call returns
// when it has stopped). A query that already ended answers 400.
func (s *Server) handleAsyncCancel(w http.ResponseWriter, r *http.Request) {
	rec, ok := s.asyncRecord(w, r)
	if !ok {
		return
	}
	auditCancel(r.Context(), rec.ID)
	if rec.finished() {
		writeError(w, badRequest(fmt.Sprintf("query %s has already ended (%s)", rec.ID, rec.Status)))
		return
	}
	a := s.async
	a.mu.Lock()
	ra := a.running[rec.ID]
	if ra != nil && rec.Stream == "" {
		ra.cancelled = true
		ra.cancel()
	}
	a.mu.Unlock()
	if ra != nil && rec.Stream != "" {
		// A streaming statement still starting its stream: let it start,
		// then stop the stream (cancelling the statement could leave a
		// stream that starts after the STOP).
		select {
		case <-ra.done:
		case <-r.Context().Done():
			writeError(w, r.Context().Err())
			return
		}
		if rec, _ = a.store.get(rec.ID); rec.finished() {
			writeError(w, badRequest(fmt.Sprintf("query %s has already ended (%s)", rec.ID, rec.Status)))
			return
		}
	}
	if rec.Stream != "" {
		stop := "STOP STREAM " + sql.QuoteIdent(rec.Stream)
		if rec.StreamKind == engine.KindView {
			stop = "ALTER MATERIALIZED VIEW " + sql.QuoteIdent(rec.Stream) + " WITH (auto_refresh = false)"
		}
		var msg string
		res, err := s.execute(s.freshSession(r), stop)
		if err != nil && !errors.Is(err, catalog.ErrNotFound) {
			writeError(w, fmt.Errorf("cancelling query %s: %w", rec.ID, err))
			return
		}
		if res != nil {
			msg = res.Message
		}
		info, _ := s.eng.Stream(r.Context(), rec.Stream)
		if st := info.Status; st.Epochs > 0 || msg == "" {
			msg = st.Stopped(info.StreamName)
		}
		if _, err := a.store.update(rec.ID, func(r *asyncRecord) {
			r.Status, r.Finished, r.Message = asyncCancelled, time.Now().UTC(), msg
		}); err != nil {
			writeError(w, err)
			return
		}
	}
	s.log.Info("async query cancelled", "query", rec.ID, "stream", rec.Stream)
	w.WriteHeader(http.StatusNoContent)
}

// asyncRecord finds the query of the request's {id}, or answers the
// plugin's 400 AsyncQueryNotFoundException. A
// query another caller submitted is answered alike, unless the caller is an
// admin: ids are not secrets (they show in logs), so its owner is what
// keeps a result from other users, and the answer does not even tell them it
// exists.
func (s *Server) asyncRecord(w http.ResponseWriter, r *http.Request) (asyncRecord, bool) {
	id := r.PathValue("id")
	rec, ok := s.async.store.get(id)
	if ok && s.auth != nil {
		p, _ := principalFrom(r.Context())
		ok = p.role >= RoleAdmin || rec.Owner != "" && rec.Owner == p.name
	}
	if !validQueryID(id) || !ok {
		writeError(w, &asyncNotFoundError{id: id})
		return asyncRecord{}, false
	}
	return rec, true
}
