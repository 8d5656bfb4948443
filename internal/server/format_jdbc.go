package server

import (
	"encoding/json"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// jdbcFormat is the plugin's default response:
//
//	{"schema": [{"name": "status", "type": "integer"}], "datarows": [[200]],
//	 "total": 1, "size": 1, "status": 200, "cursor": "..."}
//
// total counts every row of the result, size those of this page; cursor
// is there only when more pages follow.
type jdbcFormat struct{ pretty bool }

var _ formatter = jdbcFormat{}
var _ pageable = jdbcFormat{}

func (jdbcFormat) contentType() string { return "application/json; charset=UTF-8" }
func (jdbcFormat) pages() bool         { return true }

type column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type jdbcResponse struct {
	Schema   []column            `json:"schema"`
	Datarows [][]json.RawMessage `json:"datarows"`
	Total    int                 `json:"total"`
	Size     int                 `json:"size"`
	Status   int                 `json:"status"`
	Cursor   string              `json:"cursor,omitempty"`
}

func (f jdbcFormat) write(w io.Writer, p page) error {
	rows := datarows(p)
	return writeJSON(w, jdbcResponse{Schema: schemaOf(p.res.schema, true), Datarows: rows,
		Total: p.total, Size: len(rows), Status: 200, Cursor: p.cursor}, f.pretty)
}

func schemaOf(s *arrow.Schema, legacy bool) []column {
	out := make([]column, s.NumFields())
	for i, f := range s.Fields() {
		out[i] = column{Name: f.Name, Type: openSearchType(f.Type, legacy)}
	}
	return out
}

func datarows(p page) [][]json.RawMessage {
	rows := make([][]json.RawMessage, 0, p.to-p.from)
	p.res.each(p.from, p.to, func(b arrow.RecordBatch, i int) {
		row := make([]json.RawMessage, b.NumCols())
		for c := range row {
			row[c] = jsonCell(b.Column(c), i)
		}
		rows = append(rows, row)
	})
	return rows
}

func writeJSON(w io.Writer, v any, pretty bool) error {
	enc := json.NewEncoder(w)
	if pretty {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}
