package cli

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/engine"
)

// Formatter writes one statement's rows to w.
//
// Format is called once per result that has rows (Schema != nil), in
// statement order, with every batch of that result; a nil or empty batch
// list means zero rows. It does not close or flush w beyond what it wrote.
type Formatter interface {
	Format(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error
}

// formatters is the one list of output formats, keyed by --format name.
var formatters = map[string]func() Formatter{
	"table": func() Formatter { return Table{} },
	"csv":   func() Formatter { return CSV{} },
	"json":  func() Formatter { return JSON{} },
	"jsonl": func() Formatter { return JSONLines{} },
}

// FormatNames lists the accepted --format values, sorted.
func FormatNames() []string {
	names := make([]string, 0, len(formatters))
	for n := range formatters {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// formatName is the --format name of f ("table" for an unknown one).
func formatName(f Formatter) string {
	switch f.(type) {
	case CSV:
		return "csv"
	case JSON:
		return "json"
	case JSONLines:
		return "jsonl"
	}
	return "table"
}

// NewFormatter returns the formatter called name (table, csv, json, jsonl).
func NewFormatter(name string) (Formatter, error) {
	mk, ok := formatters[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown format %q (want one of %s)", name, strings.Join(FormatNames(), ", "))
	}
	return mk(), nil
}

// WriteResult writes one statement's result: its rows through f, or its
// message as-is on a line of its own.
func WriteResult(w io.Writer, f Formatter, r *engine.Result) error {
	bw := bufio.NewWriter(w)
	if r.Schema != nil {
		if err := f.Format(bw, r.Schema, r.Batches); err != nil {
			return fmt.Errorf("writing result: %w", err)
		}
	}
	if r.Message != "" {
		bw.WriteString(r.Message)
		if !strings.HasSuffix(r.Message, "\n") {
			bw.WriteByte('\n')
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing result: %w", err)
	}
	return nil
}

// numRows counts the rows of a result.
func numRows(batches []arrow.RecordBatch) int64 {
	var n int64
	for _, b := range batches {
		if b != nil {
			n += b.NumRows()
		}
	}
	return n
}
