package cli

import (
	"strings"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// resultColumn is the text of column name in every row of r (NULL as
// ""), nil when r has no such column.
func resultColumn(r *engine.Result, name string) []string {
	if r == nil || r.Schema == nil {
		return nil
	}
	j := -1
	for i, f := range r.Schema.Fields() {
		if strings.EqualFold(f.Name, name) {
			j = i
			break
		}
	}
	if j < 0 {
		return nil
	}
	var out []string
	for _, b := range r.Batches {
		if b == nil || int(b.NumCols()) <= j {
			continue
		}
		for i := 0; i < int(b.NumRows()); i++ {
			s, _ := types.Text(b.Column(j), i)
			out = append(out, s)
		}
	}
	return out
}
