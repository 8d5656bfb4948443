package server

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

// page is the part of a result one response carries: rows from..to-1,
// and the cursor that fetches the rest ("" on the last page).
type page struct {
	res      *result
	from, to int
	cursor   string
}

// formatter writes one page in one of the plugin's response formats
// (?format=jdbc|json|csv|raw). Errors are not its business: every format
// answers them with the JSON error body (writeError).
type formatter interface {
	contentType() string
	write(w io.Writer, p page) error
}

// pageable formats may return a cursor (the plugin pages jdbc only).
type pageable interface{ pages() bool }

// formatFor reads ?format= and the options that go with it (sanitize for
// csv, pretty for the JSON formats).
func formatFor(r *http.Request) (formatter, error) {
	q := r.URL.Query()
	pretty := q.Has("pretty") && q.Get("pretty") != "false"
	switch strings.ToLower(q.Get("format")) {
	case "", "jdbc":
		return jdbcFormat{pretty: pretty}, nil
	case "json":
		return jsonFormat{pretty: pretty}, nil
	case "csv":
		return flatFormat{sep: ",", sanitize: q.Get("sanitize") != "false"}, nil
	case "raw":
		return flatFormat{sep: "|"}, nil
	}
	return nil, fmt.Errorf("unsupported format %q (jdbc, json, csv or raw)", q.Get("format"))
}
