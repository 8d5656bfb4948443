package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/sql"
	"sluice/internal/types"
)

// stringRows builds a result of STRING columns.
func stringRows(cols []string, rows [][]string) *Result {
	fs := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fs[i] = arrow.Field{Name: c, Type: types.String, Nullable: true}
	}
	schema := arrow.NewSchema(fs, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range rows {
		for i, v := range r {
			b.Field(i).(*array.StringBuilder).Append(v)
		}
	}
	rec := b.NewRecordBatch()
	return &Result{Schema: schema, Batches: []arrow.RecordBatch{rec}}
}

func (e *Engine) showTables() (*Result, error) {
	ts, err := e.catalog.Tables()
	if err != nil {
		return nil, err
	}
	rows := make([][]string, len(ts))
	for i, t := range ts {
		rows[i] = []string{t.Spec.Name, t.Spec.Using, sql.RedactURL(t.Spec.Location)}
	}
	return stringRows([]string{"name", "using", "location"}, rows), nil
}

func (e *Engine) describeTable(name string) (*Result, error) {
	t, err := e.catalog.Table(name)
	if err != nil {
		return nil, err
	}
	parts := map[string]bool{}
	for _, p := range t.Spec.PartitionBy {
		parts[strings.ToLower(p)] = true
	}
	var rows [][]string
	for _, f := range t.Spec.Schema.Fields() {
		var notes []string
		if parts[strings.ToLower(f.Name)] {
			notes = append(notes, "partition column")
		}
		if t.Watermark != nil && strings.EqualFold(t.Watermark.Column, f.Name) {
			notes = append(notes, "watermark: "+t.Watermark.Expr)
		}
		rows = append(rows, []string{f.Name, types.SQLName(f.Type), strings.Join(notes, "; ")})
	}
	return stringRows([]string{"col_name", "data_type", "comment"}, rows), nil
}

func (e *Engine) showCreateTable(name string) (*Result, error) {
	t, err := e.catalog.Table(name)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (", types.QuoteIdent(t.Spec.Name))
	for i, f := range t.Spec.Schema.Fields() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", types.QuoteIdent(f.Name), types.SQLName(f.Type))
	}
	if t.Watermark != nil {
		fmt.Fprintf(&b, ", WATERMARK FOR %s AS %s", types.QuoteIdent(t.Watermark.Column), t.Watermark.Expr)
	}
	fmt.Fprintf(&b, ") USING %s", t.Spec.Using)
	if t.Spec.Location != "" {
		fmt.Fprintf(&b, " LOCATION %s", quoteString(sql.RedactURL(t.Spec.Location)))
	}
	if len(t.Spec.PartitionBy) > 0 {
		fmt.Fprintf(&b, " PARTITIONED BY (%s)", strings.Join(t.Spec.PartitionBy, ", "))
	}
	if len(t.Spec.Options) > 0 {
		keys := make([]string, 0, len(t.Spec.Options))
		for k := range t.Spec.Options {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s %s", types.QuoteIdent(k), quoteString(redact(k, t.Spec.Options[k])))
		}
		fmt.Fprintf(&b, " OPTIONS (%s)", strings.Join(parts, ", "))
	}
	return stringRows([]string{"createtab_stmt"}, [][]string{{b.String()}}), nil
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// redact hides values of keys that hold secrets. Anything that looks like
// a credential is hidden; over-redacting is the safe mistake.
func redact(key, value string) string {
	k := strings.ToLower(key)
	for _, s := range []string{"secret", "password", "token", "credential", "passwd"} {
		if strings.Contains(k, s) {
			return "***"
		}
	}
	return sql.RedactURL(value)
}

func (e *Engine) set(s *sql.Set) (*Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.settings[strings.ToLower(s.Key)] = s.Value.Value
	return message("%s set", s.Key), nil
}

func (e *Engine) reset(s *sql.Reset) (*Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.settings, strings.ToLower(s.Key))
	return message("%s reset", s.Key), nil
}

func (e *Engine) showSettings() (*Result, error) {
	e.mu.Lock()
	keys := make([]string, 0, len(e.settings))
	for k := range e.settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rows := make([][]string, len(keys))
	for i, k := range keys {
		rows[i] = []string{k, redact(k, e.settings[k])}
	}
	e.mu.Unlock()
	return stringRows([]string{"key", "value"}, rows), nil
}
