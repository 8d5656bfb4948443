package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/mattn/go-runewidth"

	"sluice/internal/types"
)

// Table prints an aligned ASCII box, psql/DuckDB style: NULL spelled
// NULL, numbers right-aligned, nested values as JSON, a row count below.
//
//	+--------+-----+
//	| status | n   |
//	+--------+-----+
//	|    200 | 312 |
//	+--------+-----+
//	(1 row)
type Table struct {
	// MaxWidth caps a column's width in terminal cells; longer values are
	// cut with "…". Zero means 120.
	MaxWidth int
	// Expanded prints one block per row, a line per column, as psql's \x
	// (table_expanded.go).
	Expanded bool
}

var _ Formatter = Table{}

// Format implements Formatter.
func (t Table) Format(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	if t.Expanded {
		return t.formatExpanded(w, schema, batches)
	}
	maxWidth := t.MaxWidth
	if maxWidth <= 0 {
		maxWidth = 120
	}
	ncol := schema.NumFields()
	widths := make([]int, ncol)
	right := make([]bool, ncol)
	header := make([]string, ncol)
	for j, f := range schema.Fields() {
		header[j] = t.clip(escapeControl(f.Name), maxWidth)
		widths[j] = runewidth.StringWidth(header[j])
		right[j] = isNumeric(f.Type)
	}
	// Rendering every cell first costs memory proportional to the result,
	// which is already materialized; widths need every row anyway.
	var rows [][]string
	for _, b := range batches {
		if b == nil {
			continue
		}
		for i := 0; i < int(b.NumRows()); i++ {
			row := make([]string, ncol)
			for j := 0; j < ncol && j < int(b.NumCols()); j++ {
				s, ok := types.Text(b.Column(j), i)
				if !ok {
					s = "NULL"
				}
				row[j] = t.clip(escapeControl(s), maxWidth)
				widths[j] = max(widths[j], runewidth.StringWidth(row[j]))
			}
			rows = append(rows, row)
		}
	}

	var sb strings.Builder
	rule := func() {
		sb.WriteByte('+')
		for _, wd := range widths {
			sb.WriteString(strings.Repeat("-", wd+2))
			sb.WriteByte('+')
		}
		sb.WriteByte('\n')
	}
	line := func(cells []string, alignRight []bool) {
		sb.WriteByte('|')
		for j, c := range cells {
			pad := strings.Repeat(" ", widths[j]-runewidth.StringWidth(c))
			sb.WriteByte(' ')
			if alignRight != nil && alignRight[j] {
				sb.WriteString(pad + c)
			} else {
				sb.WriteString(c + pad)
			}
			sb.WriteString(" |")
		}
		sb.WriteByte('\n')
	}
	rule()
	line(header, nil)
	rule()
	for _, r := range rows {
		line(r, right)
	}
	if len(rows) > 0 {
		rule()
	}
	if len(rows) == 1 {
		sb.WriteString("(1 row)\n")
	} else {
		fmt.Fprintf(&sb, "(%d rows)\n", len(rows))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func (t Table) clip(s string, width int) string {
	if runewidth.StringWidth(s) <= width {
		return s
	}
	return runewidth.Truncate(s, width, "…")
}

// isNumeric reports the columns the table format right-aligns.
func isNumeric(t arrow.DataType) bool {
	if d, ok := t.(*arrow.DictionaryType); ok {
		t = d.ValueType
	}
	return types.IsNumeric(t) || t.ID() == arrow.DECIMAL256
}

// escapeControl makes a value printable on one table line.
func escapeControl(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
}
