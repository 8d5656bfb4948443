package server

import (
	"bytes"
	"encoding/json"
	"io"
)

// vizFormat is ?format=viz, the plugin's column-wise answer for the
// Observability visualizations (VisualizationResponseFormatter): each
// column's values in one list under data, in column order, the columns'
// legacy type names, the row count and a status:
//
//	{"data": {"age": [32, 36]}, "metadata": {"fields": [{"name": "age", "type": "long"}]},
//	 "fields": [{"name": "age", "type": "long"}], "size": 2, "status": 200}
//
// The plugin's code writes the fields under metadata; protocol.rst shows
// them at the top level; both are there so either reader finds them.
type vizFormat struct{ pretty bool }

var _ formatter = vizFormat{}

func (vizFormat) contentType() string { return "application/json; charset=UTF-8" }

func (f vizFormat) write(w io.Writer, p page) error {
	fields := schemaOf(p.res.schema, true)
	cols := make([][]json.RawMessage, len(fields))
	rows := datarows(p)
	for _, r := range rows {
		for c, v := range r {
			cols[c] = append(cols[c], v)
		}
	}
	// data keeps the columns' order, which a Go map would not.
	var data bytes.Buffer
	data.WriteByte('{')
	for c, fd := range fields {
		if c > 0 {
			data.WriteByte(',')
		}
		name, _ := json.Marshal(fd.Name)
		data.Write(name)
		data.WriteByte(':')
		vals := cols[c]
		if vals == nil {
			vals = []json.RawMessage{}
		}
		v, err := json.Marshal(vals)
		if err != nil {
			return err
		}
		data.Write(v)
	}
	data.WriteByte('}')
	return writeJSON(w, struct {
		Data     json.RawMessage `json:"data"`
		Metadata struct {
			Fields []column `json:"fields"`
		} `json:"metadata"`
		Fields []column `json:"fields"`
		Size   int      `json:"size"`
		Status int      `json:"status"`
	}{Data: data.Bytes(), Metadata: struct {
		Fields []column `json:"fields"`
	}{fields}, Fields: fields, Size: len(rows), Status: 200}, f.pretty)
}
