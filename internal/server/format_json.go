package server

import (
	"encoding/json"
	"io"
)

// jsonFormat is ?format=json: the plugin's simple JSON response, the
// schema with the engine's own type names (string, struct, array) and no
// status or cursor.
//
//	{"schema": [{"name": "host", "type": "string"}], "datarows": [["a"]], "total": 1, "size": 1}
type jsonFormat struct{ pretty bool }

var _ formatter = jsonFormat{}

func (jsonFormat) contentType() string { return "application/json; charset=UTF-8" }

type jsonResponse struct {
	Schema   []column            `json:"schema"`
	Datarows [][]json.RawMessage `json:"datarows"`
	Total    int                 `json:"total"`
	Size     int                 `json:"size"`
}

func (f jsonFormat) write(w io.Writer, p page) error {
	rows := datarows(p)
	return writeJSON(w, jsonResponse{Schema: schemaOf(p.res.schema, false), Datarows: rows,
		Total: p.total, Size: len(rows)}, f.pretty)
}
