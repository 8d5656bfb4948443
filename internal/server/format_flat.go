package server

import (
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// flatFormat is ?format=csv (sep ",") and ?format=raw (sep "|"): a header
// line of column names, then one line per row, lines joined by "\n" with
// none after the last, NULL as an empty cell. A cell holding the
// separator, a double quote, CR or LF is quoted, quotes doubled (RFC
// 4180), so a value with a line break stays one field and cannot add a
// row. With sanitize (csv, unless ?sanitize=false), a cell starting with
// + - = or @ gets a leading ' so spreadsheets do not run it as a formula,
// and so does every line inside a cell: a reader that splits on line
// breaks despite the quotes sees a guarded line start too.
type flatFormat struct {
	sep      string
	sanitize bool
}

var _ formatter = flatFormat{}

func (f flatFormat) contentType() string { return "text/plain; charset=UTF-8" }

func (f flatFormat) write(w io.Writer, p page) error {
	var b strings.Builder
	for i, fld := range p.res.schema.Fields() {
		if i > 0 {
			b.WriteString(f.sep)
		}
		b.WriteString(f.cell(fld.Name))
	}
	p.res.each(p.from, p.to, func(rb arrow.RecordBatch, i int) {
		b.WriteByte('\n')
		for c := 0; c < int(rb.NumCols()); c++ {
			if c > 0 {
				b.WriteString(f.sep)
			}
			b.WriteString(f.cell(textCell(rb.Column(c), i)))
		}
	})
	_, err := io.WriteString(w, b.String())
	return err
}

func (f flatFormat) cell(s string) string {
	if f.sanitize {
		s = guardFormulas(s)
	}
	if strings.Contains(s, f.sep) || strings.ContainsAny(s, "\"\r\n") {
		s = `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// guardFormulas puts a ' before the cell's start and before every line
// start inside it (after CR or LF) that is + - = or @.
func guardFormulas(s string) string {
	if !strings.ContainsAny(s, "+-=@") {
		return s
	}
	var b strings.Builder
	lineStart := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if lineStart && strings.IndexByte("+-=@", c) >= 0 {
			b.WriteByte('\'')
		}
		b.WriteByte(c)
		lineStart = c == '\n' || c == '\r'
	}
	return b.String()
}
