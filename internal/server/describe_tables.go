package server

import (
	"context"
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/ppl"
	"sluice/internal/sql"
)

// describeTablesRE is the plugin's DESCRIBE TABLES LIKE 'p' [COLUMNS
// LIKE 'p'] (docs/user/dql/metadata.rst), which Spark SQL has no
// meaning for: only the SQL REST endpoint reads it, as the plugin's
// JDBC driver sends it.
var describeTablesRE = regexp.MustCompile(`(?is)^\s*DESCRIBE\s+TABLES\s+LIKE\s+('(?:[^']|'')*'|"(?:[^"]|"")*")(?:\s+COLUMNS\s+LIKE\s+('(?:[^']|'')*'|"(?:[^"]|"")*"))?\s*$`)

// describeColumns are the JDBC metadata columns the plugin answers
// DESCRIBE TABLES with, PPL's describe's.
var describeColumns = ppl.DescribeColumns

// describeTables answers DESCRIBE TABLES LIKE: one row per column of
// each table whose name matches the pattern (SQL wildcards: % any run,
// _ one character), the columns narrowed by COLUMNS LIKE, as the plugin
// does: TABLE_CAT the cluster, TYPE_NAME the legacy type name,
// ORDINAL_POSITION from 0, NUM_PREC_RADIX 10, NULLABLE 2 (unknown),
// IS_AUTOINCREMENT NO. ok is false when text is not that statement.
func (s *Server) describeTables(ctx context.Context, text string) (res *result, ok bool, err error) {
	m := describeTablesRE.FindStringSubmatch(text)
	if m == nil {
		return nil, false, nil
	}
	tables := likeRE(unquoteLike(m[1]))
	cols := likeRE("%")
	if m[2] != "" {
		cols = likeRE(unquoteLike(m[2]))
	}
	ts, err := s.eng.Catalog().Tables()
	if err != nil {
		return nil, true, err
	}
	fields := make([]arrow.Field, len(describeColumns))
	for i, n := range describeColumns {
		t := arrow.DataType(arrow.BinaryTypes.String)
		switch n {
		case "NUM_PREC_RADIX", "NULLABLE", "ORDINAL_POSITION":
			t = arrow.PrimitiveTypes.Int32
		}
		fields[i] = arrow.Field{Name: n, Type: t, Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	n := 0
	for _, t := range ts {
		name := t.Spec.Name
		if !tables.MatchString(name) {
			continue
		}
		// The table's columns as a query sees them (a view's too), with
		// the caller's rights.
		r, err := s.executeWith(ctx, "SELECT * FROM "+sql.QuoteName(name)+" LIMIT 0", sql.ParseOne)
		if err != nil {
			return nil, true, err
		}
		for pos, f := range r.Schema.Fields() {
			if !cols.MatchString(f.Name) {
				continue
			}
			vals := map[string]any{"TABLE_CAT": "sluice", "TABLE_NAME": name, "COLUMN_NAME": f.Name,
				"TYPE_NAME": openSearchType(f.Type, true), "NUM_PREC_RADIX": 10, "NULLABLE": 2,
				"ORDINAL_POSITION": pos, "IS_NULLABLE": "", "IS_AUTOINCREMENT": "NO", "IS_GENERATEDCOLUMN": ""}
			for i, c := range describeColumns {
				switch v := vals[c].(type) {
				case string:
					b.Field(i).(*array.StringBuilder).Append(v)
				case int:
					b.Field(i).(*array.Int32Builder).Append(int32(v))
				default:
					b.Field(i).AppendNull()
				}
			}
			n++
		}
		for _, bt := range r.Batches {
			bt.Release()
		}
	}
	return &result{schema: schema, batches: []arrow.RecordBatch{b.NewRecordBatch()}, total: n}, true, nil
}

// unquoteLike strips a pattern's quotes, a doubled quote one.
func unquoteLike(q string) string {
	return strings.ReplaceAll(q[1:len(q)-1], q[:1]+q[:1], q[:1])
}

// likeRE is a SQL LIKE pattern as a whole-string regular expression.
func likeRE(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?s)^")
	for _, r := range p {
		switch r {
		case '%':
			b.WriteString(".*")
		case '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
