package server

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// pplFormat is the PPL endpoint's default (jdbc) response. The plugin
// answers PPL with its simple JSON formatter and PPL's type names
// (PPLLangSpec: tinyint, smallint, int, bigint; string, not keyword), and
// neither a status nor a cursor:
//
//	{"schema": [{"name": "firstname", "type": "string"}], "datarows": [["Amber"]], "total": 1, "size": 1}
type pplFormat struct{ pretty bool }

var _ formatter = pplFormat{}

func (pplFormat) contentType() string { return "application/json; charset=UTF-8" }

func (f pplFormat) write(w io.Writer, p page) error {
	rows := datarows(p)
	s := p.res.schema
	schema := make([]column, s.NumFields())
	for i, fd := range s.Fields() {
		schema[i] = column{Name: fd.Name, Type: pplType(fd.Type)}
	}
	return writeJSON(w, jsonResponse{Schema: schema, Datarows: rows, Total: p.total, Size: len(rows)}, f.pretty)
}

// pplType is the plugin's PPL name of a column type: ExprCoreType's name
// in lower case, with PPLLangSpec's SQL names for the integers.
func pplType(t arrow.DataType) string {
	switch name := openSearchType(t, false); name {
	case "byte":
		return "tinyint"
	case "short":
		return "smallint"
	case "integer":
		return "int"
	case "long":
		return "bigint"
	default:
		return name
	}
}
