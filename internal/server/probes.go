package server

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"sluice/internal/job"
)

// Probes for supervisors and load balancers. /healthz and /readyz need
// no credentials and pass no Host check (a probe sends the pod's address),
// so they tell nothing but the status: /healthz that the process serves,
// /readyz that it is ready to take work: its data dir is locked and its
// catalog loaded (a Server exists only then), and every stream and view
// recorded as running has started or is retrying, none failed. Anything
// else is 503 with a one-line reason that names no stream.
// GET /_cluster/health answers in OpenSearch's shape for clients that ask,
// behind the API's authentication like every other route (clusterRoutes).
const (
	healthPath = "/healthz"
	readyPath  = "/readyz"
)

// probes answers the probe paths before the Host check and authentication
// and passes every other request to next.
func (s *Server) probes(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.URL.Path != healthPath && r.URL.Path != readyPath) || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
		w.Header().Set("Cache-Control", "no-store")
		status, text := http.StatusOK, "ok"
		if r.URL.Path == readyPath {
			if reason := s.notReady(r.Context()); reason != "" {
				status, text = http.StatusServiceUnavailable, "not ready: "+reason
			}
		}
		w.WriteHeader(status)
		if r.Method == http.MethodGet {
			fmt.Fprintln(w, text)
		}
	})
}

// notReady is why the server is not ready, "" when it is.
func (s *Server) notReady(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	infos, err := s.eng.Streams(ctx)
	if err != nil {
		return "the catalog cannot be read"
	}
	failed, stopped := 0, 0
	for _, in := range infos {
		if in.Desired != job.DesiredRunning {
			continue
		}
		switch in.Status.State {
		case job.StateRunning, job.StateRetrying, job.StateWaiting:
		case job.StateFailed:
			failed++
		default:
			stopped++
		}
	}
	switch {
	case failed > 0:
		return fmt.Sprintf("%d of the streams recorded as running failed", failed)
	case stopped > 0:
		return fmt.Sprintf("%d of the streams recorded as running are not running", stopped)
	}
	return ""
}

// handleClusterHealth is GET /_cluster/health in OpenSearch's shape: one
// node, no shards; green when ready (readyz), red otherwise.
func (s *Server) handleClusterHealth(w http.ResponseWriter, r *http.Request) {
	status := "green"
	if s.notReady(r.Context()) != "" {
		status = "red"
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = writeJSON(w, map[string]any{
		"cluster_name": "sluice", "status": status, "timed_out": false,
		"number_of_nodes": 1, "number_of_data_nodes": 1,
		"discovered_master": true, "discovered_cluster_manager": true,
		"active_primary_shards": 0, "active_shards": 0, "relocating_shards": 0, "initializing_shards": 0,
		"unassigned_shards": 0, "delayed_unassigned_shards": 0, "number_of_pending_tasks": 0,
		"number_of_in_flight_fetch": 0, "task_max_waiting_in_queue_millis": 0,
		"active_shards_percent_as_number": 100.0,
	}, true)
}
