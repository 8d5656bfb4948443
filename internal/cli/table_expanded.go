package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/mattn/go-runewidth"
)

// formatExpanded prints each row as a block of column | value lines
// under a -[ RECORD n ]- rule, as psql's \x does:
//
//	-[ RECORD 1 ]-+----
//	status        | 200
//	n             | 312
//
// A value of several lines continues on lines with an empty name.
func (t Table) formatExpanded(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	ncol := schema.NumFields()
	names := make([]string, ncol)
	nameWidth := 0
	for j, f := range schema.Fields() {
		names[j] = escapeControl(f.Name)
		nameWidth = max(nameWidth, runewidth.StringWidth(names[j]))
	}
	rows := cellRows(batches, ncol)
	valueWidth := 0
	for _, row := range rows {
		for _, lines := range row {
			for k := range lines {
				if t.Width > 0 {
					lines[k] = clip(lines[k], max(t.Width-nameWidth-3, minColumnWidth))
				}
				valueWidth = max(valueWidth, runewidth.StringWidth(lines[k]))
			}
		}
	}
	var sb strings.Builder
	if len(rows) == 0 {
		sb.WriteString("(0 rows)\n")
	}
	for i, row := range rows {
		label := fmt.Sprintf("-[ RECORD %d ]", i+1)
		sb.WriteString(label)
		if n := runewidth.StringWidth(label); n < nameWidth+1 {
			sb.WriteString(strings.Repeat("-", nameWidth+1-n) + "+" + strings.Repeat("-", valueWidth+1))
		} else {
			sb.WriteString(strings.Repeat("-", max(nameWidth+valueWidth+3-n, 0)))
		}
		sb.WriteByte('\n')
		for j, lines := range row {
			for k, l := range lines {
				name := ""
				if k == 0 {
					name = names[j]
				}
				sb.WriteString(name + strings.Repeat(" ", nameWidth-runewidth.StringWidth(name)) + " | " + l)
				sb.WriteByte('\n')
			}
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// cellLines splits a value into the lines it prints as; tabs and
// carriage returns stay escaped so widths hold.
func cellLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.NewReplacer("\r", `\r`, "\t", `\t`).Replace(l)
	}
	return lines
}
