package server

import (
	"embed"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
)

// ConsolePath is where the web console lives: static files embedded in
// the binary (internal/server/console) that read the JSON API like any
// other client, so a read user's console can do what the read role may
// and no more. GET / sends browsers here (wantsHTML) and keeps answering
// API clients with the cluster info.
const ConsolePath = "/console/"

// APIWhoamiPath tells the console who it runs as, to offer start and stop
// only to roles that may (write for streams, admin for views too; the
// server still refuses the others: 403).
const APIWhoamiPath = "/api/v1/whoami"

//go:embed console
var consoleFiles embed.FS

// consoleCSP allows the console's own files and nothing else: no CDN, no
// inline script (uPlot sets element styles from script, which CSP allows).
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func (s *Server) consoleRoutes() {
	sub, err := fs.Sub(consoleFiles, "console")
	if err != nil {
		panic(err) // the embed pattern names the folder: cannot happen
	}
	files := http.StripPrefix(ConsolePath, http.FileServerFS(sub))
	index, err := fs.ReadFile(sub, "index.html")
	if err != nil {
		panic(err) // embedded: cannot happen
	}
	s.consoleFiles = func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", consoleCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		// The files change with the binary, and an embed has no mod times.
		h.Set("Cache-Control", "no-cache")
		if r.URL.Path == ConsolePath {
			// The page carries its user's anti-CSRF token (csrf.go), so
			// it is never cached. Served without credentials, it has none:
			// the console signs in and takes its token from whoami.
			p, ok := principalFrom(r.Context())
			if !ok {
				h.Set("Cache-Control", "no-store")
				h.Set("Content-Type", "text/html; charset=utf-8")
				_, _ = w.Write(index)
				return
			}
			h.Set("Cache-Control", "no-store")
			h.Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(s.consolePage(index, p))
			return
		}
		files.ServeHTTP(w, r)
	}
	s.readRoute("GET "+ConsolePath, s.consoleFiles)
	s.readRoute("GET "+APIWhoamiPath, s.handleWhoami)
}

// consoleHeader marks the console's own API requests: a 401 to them
// carries no WWW-Authenticate challenge, so the browser shows the
// console's sign-in page instead of its own password dialog.
const consoleHeader = "X-Sluice-Console"

// publicConsoleFile is true for a GET of the console's static files (or
// of / from a browser) without credentials: they are served to anyone,
// so a browser can load the sign-in page; every API call still needs
// credentials.
func publicConsoleFile(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead || r.Header.Get("Authorization") != "" {
		return false
	}
	return strings.HasPrefix(r.URL.Path, ConsolePath) || r.URL.Path == "/console" || r.URL.Path == "/" && wantsHTML(r)
}

// servePublicConsole serves a publicConsoleFile request.
func (s *Server) servePublicConsole(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/" || r.URL.Path == "/console" {
		http.Redirect(w, r, ConsolePath, http.StatusFound)
		return
	}
	s.consoleFiles(w, r)
}

// handleWhoami tells the console who it runs as, and gives it its
// anti-CSRF token (a page served before sign-in has none): a page of
// another site cannot read this answer.
func (s *Server) handleWhoami(w http.ResponseWriter, r *http.Request) {
	p, _ := principalFrom(r.Context())
	writeOK(w, map[string]any{"user": p.name, "role": p.role.String(), "authentication": s.auth != nil, "csrf": s.csrfToken(p)})
}

// wantsHTML is true when r's Accept header ranks text/html above
// application/json, as a browser's does. API clients send no Accept
// (the OpenSearch SQL CLI), */* (curl) or JSON, and keep getting JSON.
func wantsHTML(r *http.Request) bool {
	html, json := acceptQ(r.Header.Values("Accept"), "text/html"), acceptQ(r.Header.Values("Accept"), "application/json")
	return html > json
}

// acceptQ is the quality the Accept header gives mediaType: its own
// entry's q, else its type/*'s, else */*'s, else 0.
func acceptQ(accept []string, mediaType string) float64 {
	typ, _, _ := strings.Cut(mediaType, "/")
	best, bestRank := 0.0, 0
	for _, line := range accept {
		for _, part := range strings.Split(line, ",") {
			fields := strings.Split(part, ";")
			mt := strings.ToLower(strings.TrimSpace(fields[0]))
			rank := 0
			switch mt {
			case mediaType:
				rank = 3
			case typ + "/*":
				rank = 2
			case "*/*":
				rank = 1
			default:
				continue
			}
			q := 1.0
			for _, p := range fields[1:] {
				if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
					if f, err := strconv.ParseFloat(v, 64); err == nil {
						q = f
					}
				}
			}
			if rank > bestRank {
				best, bestRank = q, rank
			}
		}
	}
	return best
}
