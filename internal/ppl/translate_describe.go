package ppl

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/sql"
	"sluice/internal/types"
)

// DescribeColumns are the JDBC metadata columns (DatabaseMetaData
// .getColumns) the plugin answers PPL's describe and the SQL endpoint's
// DESCRIBE TABLES LIKE with (internal/server/describe_tables.go).
var DescribeColumns = []string{"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE",
	"TYPE_NAME", "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE",
	"REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH",
	"ORDINAL_POSITION", "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA", "SCOPE_TABLE",
	"SOURCE_DATA_TYPE", "IS_AUTOINCREMENT", "IS_GENERATEDCOLUMN"}

// describe is the source of describe t | ...: one row per column of t, in
// its order, with the plugin's metadata columns: TABLE_CAT sluice,
// TYPE_NAME the SQL type in lower case (bigint, string), NUM_PREC_RADIX
// 10, NULLABLE 2 (unknown), ORDINAL_POSITION from 0, IS_AUTOINCREMENT NO,
// the others NULL or empty as the plugin gives them.
func (t *translator) describe(s *Source) (sql.TableExpr, error) {
	at := s.At
	if t.schema == nil {
		return nil, errAt(at, "describe %s | ...: the table's schema is not known here", s.Table)
	}
	sch, err := t.schema(&sql.Query{At: at, Body: &sql.Select{At: at, Items: []*sql.SelectItem{star(at)}, From: &sql.TableName{At: at, Name: s.Table}}})
	if err != nil {
		return nil, err
	}
	str := func(v string) sql.Expr { return strLit(at, v) }
	null := func() sql.Expr {
		return &sql.Cast{At: at, X: &sql.Literal{At: at, Kind: sql.LitNull, Value: "NULL"}, Type: arrow.BinaryTypes.String}
	}
	var rows [][]sql.Expr
	for pos, f := range sch.Fields() {
		vals := map[string]sql.Expr{"TABLE_CAT": str("sluice"), "TABLE_NAME": str(s.Table), "COLUMN_NAME": str(f.Name),
			"TYPE_NAME": str(strings.ToLower(types.SQLName(f.Type))), "NUM_PREC_RADIX": intLit(at, 10),
			"NULLABLE": intLit(at, 2), "ORDINAL_POSITION": intLit(at, int64(pos)), "IS_NULLABLE": str(""),
			"IS_AUTOINCREMENT": str("NO"), "IS_GENERATEDCOLUMN": str("")}
		row := make([]sql.Expr, len(DescribeColumns))
		for i, c := range DescribeColumns {
			if row[i] = vals[c]; row[i] == nil {
				row[i] = null()
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, errAt(at, "describe %s: the table has no columns", s.Table)
	}
	return &sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: &sql.Values{At: at, Rows: rows}},
		Alias: "_describe", Columns: DescribeColumns}, nil
}
