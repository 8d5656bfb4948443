package opensearch

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// indexPattern is an index name with {column} or {column|date format}
// parts taken from each row, e.g. logs-{@timestamp|yyyy.MM.dd}.
type indexPattern struct {
	parts []patternPart
}

type patternPart struct {
	literal string
	column  string // set: a value part
	layout  string // Go time layout for the value; "" prints it as is
}

// parseIndexPattern splits a pattern; a name without braces is one literal.
func parseIndexPattern(s string) (*indexPattern, error) {
	p := &indexPattern{}
	for s != "" {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			p.parts = append(p.parts, patternPart{literal: s})
			break
		}
		if i > 0 {
			p.parts = append(p.parts, patternPart{literal: s[:i]})
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("option index: unclosed { in %q", s)
		}
		body := s[i+1 : i+j]
		col, format, _ := strings.Cut(body, "|")
		col = strings.Trim(strings.TrimSpace(col), "`")
		if col == "" {
			return nil, fmt.Errorf("option index: empty column in {%s}", body)
		}
		p.parts = append(p.parts, patternPart{column: col, layout: javaLayout(strings.TrimSpace(format))})
		s = s[i+j+1:]
	}
	return p, nil
}

// static reports whether the pattern has no per-row part.
func (p *indexPattern) static() bool {
	for _, x := range p.parts {
		if x.column != "" {
			return false
		}
	}
	return true
}

// String prints the pattern back.
func (p *indexPattern) String() string {
	var b strings.Builder
	for _, x := range p.parts {
		b.WriteString(x.literal)
		if x.column != "" {
			b.WriteString("{" + x.column + "}")
		}
	}
	return b.String()
}

// javaLayout turns the Java date pattern OpenSearch users write
// (yyyy.MM.dd, yyyy-MM-dd'T'HH) into a Go layout.
func javaLayout(f string) string {
	if f == "" {
		return ""
	}
	repl := strings.NewReplacer("yyyy", "2006", "YYYY", "2006", "yy", "06", "MM", "01", "dd", "02",
		"HH", "15", "mm", "04", "ss", "05", "'", "")
	return repl.Replace(f)
}

// resolver names the index of each row of one batch.
type resolver struct {
	p    *indexPattern
	cols []int // per part: the column index, -1 for literals
}

func (p *indexPattern) bind(schema *arrow.Schema) (*resolver, error) {
	r := &resolver{p: p, cols: make([]int, len(p.parts))}
	for i, x := range p.parts {
		r.cols[i] = -1
		if x.column == "" {
			continue
		}
		r.cols[i] = fieldIndex(schema, x.column)
		if r.cols[i] < 0 {
			return nil, fmt.Errorf("option index: no column %s in %s", x.column, schemaNames(schema))
		}
	}
	return r, nil
}

// name returns the index for row i, or an error for a NULL value.
func (r *resolver) name(batch arrow.RecordBatch, row int) (string, error) {
	if r.p.static() {
		return r.p.parts[0].literal, nil
	}
	var b strings.Builder
	for i, x := range r.p.parts {
		if r.cols[i] < 0 {
			b.WriteString(x.literal)
			continue
		}
		col := batch.Column(r.cols[i])
		if types.IsNull(col, row) {
			return "", fmt.Errorf("index pattern: column %s is NULL", x.column)
		}
		v := types.ValueAt(col, row)
		if x.layout != "" {
			t, ok := v.(time.Time)
			if !ok {
				if s, isStr := v.(string); isStr {
					if us, parsed := types.ParseTimestamp(s); parsed {
						t, ok = types.FromMicros(us), true
					}
				}
			}
			if !ok {
				return "", fmt.Errorf("index pattern: column %s is not a timestamp", x.column)
			}
			b.WriteString(t.UTC().Format(x.layout))
			continue
		}
		b.WriteString(strings.ToLower(types.FormatValue(col, row)))
	}
	return b.String(), nil
}

func fieldIndex(s *arrow.Schema, name string) int {
	for i, f := range s.Fields() {
		if f.Name == name {
			return i
		}
	}
	for i, f := range s.Fields() {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

func schemaNames(s *arrow.Schema) string {
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return "(" + strings.Join(names, ", ") + ")"
}
