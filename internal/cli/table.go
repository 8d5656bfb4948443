package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/mattn/go-runewidth"

	"sluice/internal/types"
)

// Table prints an aligned ASCII box, psql/DuckDB style: NULL spelled
// NULL, numbers right-aligned, nested values as JSON, a value of several
// lines (EXPLAIN, SHOW CREATE TABLE) on as many lines, a row count below.
//
//	+--------+-----+
//	| status | n   |
//	+--------+-----+
//	|    200 | 312 |
//	+--------+-----+
//	(1 row)
type Table struct {
	// Width is the terminal's width in cells: the widest columns are cut
	// (with "…") until a line fits it. Zero prints every value whole, as
	// a pipe or a file wants.
	Width int
	// Expanded prints one block per row, a line per column, as psql's \x
	// (table_expanded.go).
	Expanded bool
}

var _ Formatter = Table{}

// minColumnWidth is as narrow as fitting the terminal cuts a column.
const minColumnWidth = 6

// Format implements Formatter.
func (t Table) Format(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	if t.Expanded {
		return t.formatExpanded(w, schema, batches)
	}
	ncol := schema.NumFields()
	widths := make([]int, ncol)
	right := make([]bool, ncol)
	header := make([][]string, ncol)
	for j, f := range schema.Fields() {
		header[j] = []string{escapeControl(f.Name)}
		widths[j] = runewidth.StringWidth(header[j][0])
		right[j] = isNumeric(f.Type)
	}
	rows := cellRows(batches, ncol)
	for _, row := range rows {
		for j, lines := range row {
			for _, l := range lines {
				widths[j] = max(widths[j], runewidth.StringWidth(l))
			}
		}
	}
	if t.Width > 0 {
		widths = fitWidths(widths, t.Width-3*ncol-1)
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
	line := func(cells [][]string, alignRight []bool) {
		n := 1
		for _, c := range cells {
			n = max(n, len(c))
		}
		for k := 0; k < n; k++ {
			sb.WriteByte('|')
			for j, c := range cells {
				s := ""
				if k < len(c) {
					s = clip(c[k], widths[j])
				}
				pad := strings.Repeat(" ", max(widths[j]-runewidth.StringWidth(s), 0))
				sb.WriteByte(' ')
				if alignRight != nil && alignRight[j] {
					sb.WriteString(pad + s)
				} else {
					sb.WriteString(s + pad)
				}
				sb.WriteString(" |")
			}
			sb.WriteByte('\n')
		}
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

// fitWidths narrows the widest columns, evenly, until they sum to at
// most avail cells; no column goes below minColumnWidth (or its own
// width), so a terminal too narrow for even that overflows.
func fitWidths(widths []int, avail int) []int {
	total := 0
	for _, w := range widths {
		total += w
	}
	if total <= avail {
		return widths
	}
	// The largest cap on every column's width that fits.
	sum := func(c int) int {
		n := 0
		for _, w := range widths {
			n += min(w, max(c, minColumnWidth))
		}
		return n
	}
	lo, hi := 0, slices.Max(widths)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if sum(mid) <= avail {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	out := make([]int, len(widths))
	for j, w := range widths {
		out[j] = min(w, max(lo, minColumnWidth))
	}
	// Give what the cap leaves over to the cut columns, left first.
	spare := avail - sum(lo)
	for j := range out {
		if spare <= 0 {
			break
		}
		if out[j] < widths[j] {
			out[j]++
			spare--
		}
	}
	return out
}

// clip cuts s to width cells, ending it with "…".
func clip(s string, width int) string {
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

// cellRows renders every cell of batches as its lines (NULL for null),
// row by column. Rendering first costs memory proportional to the result,
// which is already materialized; column widths need every row anyway.
func cellRows(batches []arrow.RecordBatch, ncol int) [][][]string {
	var rows [][][]string
	for _, b := range batches {
		if b == nil {
			continue
		}
		for i := 0; i < int(b.NumRows()); i++ {
			row := make([][]string, ncol)
			for j := 0; j < ncol && j < int(b.NumCols()); j++ {
				s, ok := types.Text(b.Column(j), i)
				if !ok {
					s = "NULL"
				}
				row[j] = cellLines(s)
			}
			rows = append(rows, row)
		}
	}
	return rows
}
