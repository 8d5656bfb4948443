package server

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/engine"
	"sluice/internal/job"
	"sluice/internal/sql"
	"sluice/internal/stream"
	"sluice/internal/types"
)

// Sluice's own JSON API for streams, views and tables (what a web
// console reads; the shapes are documented in README, Service):
//
//	GET  /api/v1/streams               → {"streams": [stream, ...]}
//	GET  /api/v1/streams/{name}        → stream
//	POST /api/v1/streams/{name}/start  → stream (START STREAM, or a view's auto_refresh = true)
//	POST /api/v1/streams/{name}/stop   → stream (STOP STREAM at the epoch boundary, or auto_refresh = false)
//	GET  /api/v1/streams/{name}/history → the last hour's samples (HistoryJSON, history.go)
//	GET  /api/v1/tables                → {"tables": [table, ...]}
//	GET  /api/v1/whoami                → {"user": ..., "role": ..., "authentication": bool} (console.go)
const (
	APIStreamsPath = "/api/v1/streams"
	APITablesPath  = "/api/v1/tables"
)

// StreamJSON is one stream or view in the API.
type StreamJSON struct {
	Name string `json:"name"`
	// Kind is "stream" or "view".
	Kind string `json:"kind"`
	// Stream is the name of the stream that runs it (a view's is
	// mv_<view>): the label of its metrics.
	Stream string `json:"stream"`
	Sink   string `json:"sink"`
	Query  string `json:"query"`
	// State is running, retrying (its last run failed with a transient
	// error: LastError says which, NextAttempt when it runs again),
	// stopped, failed, success (ended by itself) or cancelled (stopped by
	// a shutdown).
	State string `json:"state"`
	// Desired is what it was asked to be: running or stopped.
	Desired    string     `json:"desired,omitempty"`
	Trigger    string     `json:"trigger"`
	Checkpoint string     `json:"checkpoint"`
	Started    *time.Time `json:"started"`
	// Epoch is the last committed epoch (null before any).
	Epoch *int64 `json:"epoch"`
	// Epochs, RowsIn, RowsOut, LateRows, BadRows count since it started
	// in this server (the last commit's when it does not run here).
	Epochs   int64 `json:"epochs"`
	RowsIn   int64 `json:"rows_in"`
	RowsOut  int64 `json:"rows_out"`
	LateRows int64 `json:"late_rows"`
	BadRows  int64 `json:"bad_rows"`
	// Rates of the last epoch: rows arriving and written per second since
	// the epoch before started, and rows processed per second while it ran.
	RowsInPerSecond        float64 `json:"rows_in_per_second"`
	RowsOutPerSecond       float64 `json:"rows_out_per_second"`
	RowsProcessedPerSecond float64 `json:"rows_processed_per_second"`
	Lag                    LagJSON `json:"lag"`
	// Watermark and NewestEventTime are RFC 3339 (null without event
	// time); FreshnessSeconds is now minus NewestEventTime.
	Watermark        *time.Time `json:"watermark"`
	NewestEventTime  *time.Time `json:"newest_event_time"`
	FreshnessSeconds *float64   `json:"freshness_seconds"`
	LastEpoch        *EpochJSON `json:"last_epoch"`
	// State lists its stateful operators (empty for a stateless stream).
	StateOps []StateOpJSON `json:"state_operators"`
	// ScaleOut is set for a stream shared by workers (streams_scaleout.go).
	ScaleOut  *ScaleOutJSON `json:"scale_out,omitempty"`
	LastError string        `json:"last_error"`
	// Attempts counts its retries since it started in this server;
	// NextAttempt is set while it is retrying.
	Attempts    int        `json:"attempts"`
	NextAttempt *time.Time `json:"next_attempt,omitempty"`
	// QueueUnreachable counts the runs that failed because its queue
	// could not be reached.
	QueueUnreachable int64 `json:"queue_unreachable,omitempty"`
}

// LagJSON is the input waiting beyond the rate limits after the last epoch.
type LagJSON struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
}

// EpochJSON is the last committed epoch.
type EpochJSON struct {
	Epoch      int64     `json:"epoch"`
	Files      int       `json:"files"`
	Bytes      int64     `json:"bytes"`
	RowsIn     int64     `json:"rows_in"`
	RowsOut    int64     `json:"rows_out"`
	DurationMS float64   `json:"duration_ms"`
	Replayed   bool      `json:"replayed"`
	Time       time.Time `json:"time"`
	// PhasesMS is its duration by phase, in milliseconds (Spark's
	// durationMs): listing, reading, operators, sink, checkpoint.
	PhasesMS map[string]float64 `json:"phases_ms"`
}

// StateOpJSON is one stateful operator's state after the last epoch.
type StateOpJSON struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Rows is null for operators that do not count theirs.
	Rows  *int64 `json:"rows"`
	Bytes int64  `json:"bytes"`
}

// TableJSON is one table in the API. Options are left out: they may hold
// credentials.
type TableJSON struct {
	Name     string       `json:"name"`
	Using    string       `json:"using"`
	Location string       `json:"location,omitempty"`
	Columns  []ColumnJSON `json:"columns"`
	// PartitionBy names the Hive partition columns (also in Columns).
	PartitionBy []string   `json:"partition_by,omitempty"`
	Watermark   string     `json:"watermark,omitempty"`
	Managed     bool       `json:"managed"`
	Comment     string     `json:"comment,omitempty"`
	Created     *time.Time `json:"created"`
}

// ColumnJSON is a column with its SQL type.
type ColumnJSON struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Nullable bool   `json:"nullable"`
}

func (s *Server) streamAPIRoutes() {
	s.readRoute("GET "+APIStreamsPath, s.handleStreams)
	s.readRoute("GET "+APIStreamsPath+"/{name}", s.handleStream)
	s.readRoute("GET "+APIStreamsPath+"/{name}/history", s.handleStreamHistory)
	s.writeRoute("POST "+APIStreamsPath+"/{name}/start", s.audited(s.handleStreamStart))
	s.writeRoute("POST "+APIStreamsPath+"/{name}/stop", s.audited(s.handleStreamStop))
	s.readRoute("GET "+APITablesPath, s.handleTables)
}

func (s *Server) handleStreams(w http.ResponseWriter, r *http.Request) {
	infos, err := s.eng.Streams(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	out := make([]StreamJSON, 0, len(infos))
	now := time.Now()
	for _, in := range infos {
		out = append(out, s.streamJSON(in, now))
	}
	writeOK(w, map[string]any{"streams": out})
}

func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	s.writeStream(w, r.Context(), r.PathValue("name"))
}

func (s *Server) writeStream(w http.ResponseWriter, ctx context.Context, name string) {
	in, err := s.eng.Stream(ctx, name)
	if errors.Is(err, catalog.ErrNotFound) {
		writeError(w, &notFoundError{msg: "no stream or materialized view " + name})
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeOK(w, s.streamJSON(in, time.Now()))
}

func (s *Server) handleStreamStart(w http.ResponseWriter, r *http.Request) {
	s.streamCommand(w, r, "START STREAM %s", "ALTER MATERIALIZED VIEW %s WITH (auto_refresh = true)")
}

func (s *Server) handleStreamStop(w http.ResponseWriter, r *http.Request) {
	s.streamCommand(w, r, "STOP STREAM %s", "ALTER MATERIALIZED VIEW %s WITH (auto_refresh = false)")
}

// streamCommand runs the statement that starts or stops a stream or view
// and answers its new state. Stopping returns once the stream stopped
// at its epoch boundary.
func (s *Server) streamCommand(w http.ResponseWriter, r *http.Request, forStream, forView string) {
	name := r.PathValue("name")
	in, err := s.eng.Stream(r.Context(), name)
	if errors.Is(err, catalog.ErrNotFound) {
		writeError(w, &notFoundError{msg: "no stream or materialized view " + name})
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	stmt := forStream
	if in.Kind == engine.KindView {
		stmt = forView
	}
	if _, err := s.execute(s.freshSession(r), strings.ReplaceAll(stmt, "%s", sql.QuoteIdent(in.Name))); err != nil {
		writeError(w, err)
		return
	}
	s.log.Info("stream command", "stream", in.StreamName, "statement", strings.Fields(stmt)[0])
	s.writeStream(w, r.Context(), in.Name)
}

func (s *Server) streamJSON(in engine.StreamInfo, now time.Time) StreamJSON {
	st := in.Status
	out := StreamJSON{Name: in.Name, Kind: in.Kind, Stream: in.StreamName, Sink: in.Sink, Query: in.Query,
		State: st.State, Desired: in.Desired, Trigger: st.Trigger, Checkpoint: redactLocation(st.Checkpoint),
		Epochs: st.Epochs, RowsIn: st.RowsIn, RowsOut: st.RowsOut, LateRows: max(st.LateRows, st.Last.LateRows),
		BadRows: max(st.BadRows, st.Last.BadRows), LastError: st.LastError,
		RowsInPerSecond: st.Last.InputRate, RowsOutPerSecond: st.Last.OutputRate, RowsProcessedPerSecond: st.Last.ProcessRate,
		Lag: LagJSON{Files: st.Last.LagFiles, Bytes: st.Last.LagBytes}}
	if !st.Started.IsZero() {
		t := st.Started
		out.Started = &t
	}
	out.Attempts, out.QueueUnreachable = st.Attempts, st.QueueUnreachable
	if st.State == job.StateRetrying && !st.NextAttempt.IsZero() {
		t := st.NextAttempt.UTC()
		out.NextAttempt = &t
	}
	if st.State != job.StateRunning && st.Started.IsZero() {
		// Not run here: the totals are the last commit's.
		out.RowsIn, out.RowsOut = st.Last.RowsIn, st.Last.RowsOut
	}
	if st.Epochs > 0 {
		e := st.Last.Epoch
		out.Epoch = &e
		out.LastEpoch = &EpochJSON{Epoch: e, Files: st.Last.Files, Bytes: st.Last.Bytes, RowsIn: st.Last.RowsIn,
			RowsOut: st.Last.RowsOut, DurationMS: float64(st.Last.Duration.Microseconds()) / 1000, Replayed: st.Last.Replayed,
			Time: st.Last.Time.UTC(), PhasesMS: phasesMS(st.Last.Phases)}
	}
	out.ScaleOut = scaleOutJSON(st)
	out.StateOps = []StateOpJSON{}
	for _, e := range st.Last.State {
		op := StateOpJSON{ID: e.ID, Kind: e.Description.Kind, Bytes: e.Bytes}
		if e.Rows > 0 || e.Bytes > 0 {
			r := e.Rows
			op.Rows = &r
		}
		out.StateOps = append(out.StateOps, op)
	}
	if wm := st.Last.Watermark; wm != 0 && wm != stream.NoWatermark {
		t := time.UnixMicro(wm).UTC()
		out.Watermark = &t
	}
	if ev := max(st.Last.MaxEventTime, s.metrics.newestEvent(in.StreamName)); ev != 0 {
		t := time.UnixMicro(ev).UTC()
		f := freshness(now, ev).Seconds()
		out.NewestEventTime, out.FreshnessSeconds = &t, &f
	}
	return out
}

func phasesMS(p stream.Phases) map[string]float64 {
	return map[string]float64{"listing": ms(p.Listing), "reading": ms(p.Reading), "operators": ms(p.Operators),
		"sink": ms(p.Sink), "checkpoint": ms(p.Checkpoint)}
}

func (s *Server) handleTables(w http.ResponseWriter, r *http.Request) {
	tables, err := s.eng.Catalog().Tables()
	if err != nil {
		writeError(w, err)
		return
	}
	out := make([]TableJSON, 0, len(tables))
	for _, t := range tables {
		tj := TableJSON{Name: t.Spec.Name, Using: t.Spec.Using, Location: redactLocation(t.Spec.Location),
			PartitionBy: t.Spec.PartitionBy, Managed: t.Managed, Comment: t.Comment, Columns: []ColumnJSON{}}
		if t.Spec.Schema != nil {
			for _, f := range t.Spec.Schema.Fields() {
				tj.Columns = append(tj.Columns, ColumnJSON{Name: f.Name, Type: types.SQLName(f.Type), Nullable: f.Nullable})
			}
		}
		if t.Watermark != nil {
			tj.Watermark = t.Watermark.Column + " AS " + t.Watermark.Expr
		}
		if !t.Created.IsZero() {
			c := t.Created.UTC()
			tj.Created = &c
		}
		out = append(out, tj)
	}
	writeOK(w, map[string]any{"tables": out})
}

// redactLocation drops user info and query strings from a URL location
// (https://user:secret@host/, s3://b/p?X-Amz-Signature=...): the API
// never shows credentials.
func redactLocation(loc string) string {
	u, err := url.Parse(loc)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return loc
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

func writeOK(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = writeJSON(w, v, false)
}
