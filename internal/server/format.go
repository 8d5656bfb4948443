package server

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

// page is the part of a result one response carries: rows from..to-1,
// and the cursor that fetches the rest ("" on the last page). total is
// the jdbc formats' total: every row of the result when it is known (a
// materialized result, or the last page), else the rows read so far (a
// cursor reads ahead one batch past its page, not to the end).
type page struct {
	res      *result
	from, to int
	total    int
	cursor   string
	// owned: the page's batches are its own, released after writing.
	owned bool
}

// wholePage is every row of res in one page.
func wholePage(res *result) page { return page{res: res, from: 0, to: res.total, total: res.total} }

// release frees an owned page's batches once the response is written.
func (p page) release() {
	if !p.owned || p.res == nil {
		return
	}
	for _, b := range p.res.batches {
		b.Release()
	}
}

// formatter writes one page in one of the plugin's response formats
// (?format=jdbc|json|csv|raw|viz). Errors are not its business: every format
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
	case "viz":
		return vizFormat{pretty: pretty}, nil
	}
	return nil, fmt.Errorf("unsupported format %q (jdbc, json, csv, raw or viz)", q.Get("format"))
}
