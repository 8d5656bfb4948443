package server

import (
	"fmt"
	"net/http"
	"strings"
)

// The handful of cluster endpoints the plugin's clients call before any
// SQL: the OpenSearch SQL CLI checks _cat/plugins for opensearch-sql,
// reads the version from GET /, and lists indices (here: tables) with
// _alias for completion.
func (s *Server) clusterRoutes() {
	s.readRoute("GET /{$}", s.handleInfo)
	s.readRoute("HEAD /{$}", s.handleInfo)
	s.readRoute("GET /_cat/plugins", s.handleCatPlugins)
	s.readRoute("GET /_alias", s.handleAliases)
	s.readRoute("GET /_cluster/health", s.handleClusterHealth)
}

// compatVersion is the OpenSearch version Sluice answers as: clients pick
// the /_plugins/_sql paths (not the older /_opendistro ones) for 1.x and up.
const compatVersion = "2.19.0"

// version is the build's version for GET /.
func (s *Server) version() string {
	if s.opts.Version == "" {
		return "dev"
	}
	return s.opts.Version
}

func (s *Server) handleInfo(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && wantsHTML(r) {
		// A browser: the web console (console.go).
		http.Redirect(w, r, ConsolePath, http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	if r.Method == http.MethodHead {
		return
	}
	_ = writeJSON(w, map[string]any{
		"name":         "sluice",
		"cluster_name": "sluice",
		"version": map[string]any{
			"distribution":   "sluice",
			"number":         compatVersion,
			"sluice_version": s.version(),
		},
		"tagline": "Sluice: SQL over files, batch and streaming",
	}, true)
}

func (s *Server) handleCatPlugins(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
	var b strings.Builder
	if r.URL.Query().Has("v") {
		b.WriteString("name   component      version\n")
	}
	fmt.Fprintf(&b, "sluice opensearch-sql  %s\n", compatVersion)
	_, _ = w.Write([]byte(b.String()))
}

// handleAliases lists the catalog's tables as indices without aliases.
func (s *Server) handleAliases(w http.ResponseWriter, r *http.Request) {
	ts, err := s.eng.Catalog().Tables()
	if err != nil {
		writeError(w, err)
		return
	}
	out := map[string]any{}
	for _, t := range ts {
		out[t.Spec.Name] = map[string]any{"aliases": map[string]any{}}
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = writeJSON(w, out, false)
}
