package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/catalog"
	"sluice/internal/exec"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/types"
)

// StringRows is stringRows for callers outside the engine (the shell's
// meta commands assemble listings from several statements' answers).
func StringRows(cols []string, rows [][]string) *Result { return stringRows(cols, rows) }

// stringRows builds a result of STRING columns: what SHOW, DESCRIBE and
// EXPLAIN print. Every cell is redacted (sql.RedactText): they show
// options, locations, statements and errors, never data.
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
			if v == nullCell {
				b.Field(i).AppendNull()
				continue
			}
			b.Field(i).(*array.StringBuilder).Append(sql.RedactText(v))
		}
	}
	rec := b.NewRecordBatch()
	return &Result{Schema: schema, Batches: []arrow.RecordBatch{rec}}
}

// showTables lists the tables and views of one database (the current
// one when In is ""), by their own names, then the session's temporary
// views; isTemporary is Spark's column.
func (e *Engine) showTables(ctx context.Context, s *sql.ShowTables) (*Result, error) {
	db, ts, err := e.tablesLike(ctx, s.In, s.Like)
	if err != nil {
		return nil, fmt.Errorf("SHOW TABLES: %w", err)
	}
	var rows [][]string
	for _, t := range ts {
		_, name := catalog.SplitStored(t.Spec.Name)
		rows = append(rows, []string{name, t.Spec.Using, sql.RedactText(t.Spec.Location), "false"})
	}
	views, err := e.viewRows(ctx, db, s.Like)
	if err != nil {
		return nil, fmt.Errorf("SHOW TABLES: %w", err)
	}
	var temps [][]string
	for _, v := range views {
		row := []string{v.name, "view", "", fmt.Sprint(v.temporary)}
		if v.temporary {
			temps = append(temps, row)
		} else {
			rows = append(rows, row)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return strings.ToLower(rows[i][0]) < strings.ToLower(rows[j][0]) })
	return stringRows([]string{"name", "using", "location", "isTemporary"}, append(rows, temps...)), nil
}

// tablesLike are the tables of database in (the current one when "")
// whose own names match Spark's pattern like, and that database.
func (e *Engine) tablesLike(ctx context.Context, in, like string) (string, []*catalog.Table, error) {
	db, err := e.databaseOf(ctx, in)
	if err != nil {
		return "", nil, err
	}
	ts, err := e.catalog.Tables()
	if err != nil {
		return "", nil, err
	}
	var out []*catalog.Table
	for _, t := range ts {
		tdb, name := catalog.SplitStored(t.Spec.Name)
		if tdb == db && sparkPattern(like, name) {
			out = append(out, t)
		}
	}
	return db, out, nil
}

func (e *Engine) describeTable(s *sql.DescribeTable) (*Result, error) {
	t, err := e.catalog.Table(s.Name)
	if err != nil {
		return nil, err
	}
	if s.Column != "" {
		return e.describeTableColumn(t, s)
	}
	if s.Extended {
		return e.describeTableExtended(t), nil
	}
	rows := describeColumns(t)
	// Spark's DESCRIBE EXTENDED section, only when there is something to
	// show, so plain tables describe as before.
	if t.Comment != "" {
		rows = append(rows, []string{"# Comment", t.Comment, ""})
	}
	if len(t.Properties) > 0 {
		rows = append(rows, []string{"# Table Properties", "[" + propertyList(t.Properties) + "]", ""})
	}
	return stringRows([]string{"col_name", "data_type", "comment"}, rows), nil
}

func (e *Engine) showCreateTable(name string) (*Result, error) {
	t, err := e.catalog.Table(name)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (", sql.QuoteName(t.Spec.Name))
	for i, f := range t.Spec.Schema.Fields() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", types.QuoteIdent(f.Name), types.SQLName(f.Type))
		if c := columnComment(t, f.Name); c != "" {
			b.WriteString(" COMMENT " + quoteString(c))
		}
	}
	if t.Watermark != nil {
		fmt.Fprintf(&b, ", WATERMARK FOR %s AS %s", types.QuoteIdent(t.Watermark.Column), t.Watermark.Expr)
	}
	fmt.Fprintf(&b, ") USING %s", t.Spec.Using)
	if t.Spec.Location != "" {
		fmt.Fprintf(&b, " LOCATION %s", quoteString(sql.RedactText(t.Spec.Location)))
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
	if t.Comment != "" {
		fmt.Fprintf(&b, " COMMENT %s", quoteString(t.Comment))
	}
	if len(t.Properties) > 0 {
		fmt.Fprintf(&b, " TBLPROPERTIES (%s)", propertyList(t.Properties))
	}
	return stringRows([]string{"createtab_stmt"}, [][]string{{b.String()}}), nil
}

// propertyList prints TBLPROPERTIES sorted by key, secrets redacted.
func propertyList(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = quoteString(k) + " = " + quoteString(redact(k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// redact is how an option value may be shown (sql.RedactValue).
func redact(key, value string) string { return sql.RedactValue(key, value) }

func (e *Engine) set(ctx context.Context, s *sql.Set) (*Result, error) {
	if s.Value == nil {
		v, ok := e.session(ctx).setting(s.Key)
		if !ok {
			v = "<undefined>" // Spark's answer for a key never set
		} else {
			v = redact(s.Key, v)
		}
		return stringRows([]string{"key", "value"}, [][]string{{s.Key, v}}), nil
	}
	if strings.EqualFold(s.Key, memoryLimitKey) {
		if _, err := exec.ParseByteSize(s.Value.Value); err != nil {
			return nil, fmt.Errorf("SET %s: %w", s.Key, err)
		}
	}
	if strings.EqualFold(s.Key, timeZoneKey) {
		if err := checkUTCZone(s.Value.Value); err != nil {
			return nil, err
		}
	}
	e.session(ctx).set(s.Key, s.Value.Value)
	if storage.IsOptionKey(strings.ToLower(s.Key)) {
		// A habit from Spark's spark.hadoop.fs.s3a.*: those persist in a
		// config file, these do not, and a next run failing on DNS or IMDS
		// is far from this line.
		return message("%s set for this session only (put it in the table's OPTIONS to keep it)", s.Key), nil
	}
	return message("%s set", s.Key), nil
}

func (e *Engine) reset(ctx context.Context, s *sql.Reset) (*Result, error) {
	e.session(ctx).reset(s.Key)
	return message("%s reset", s.Key), nil
}

func (e *Engine) showSettings(ctx context.Context) (*Result, error) {
	settings := e.session(ctx).settingsCopy()
	keys := slices.Sorted(maps.Keys(settings))
	rows := make([][]string, len(keys))
	for i, k := range keys {
		rows[i] = []string{k, redact(k, settings[k])}
	}
	return stringRows([]string{"key", "value"}, rows), nil
}
