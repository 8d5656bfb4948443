package sparkstmt

import (
	"sluice/internal/sql"
)

func (e *Runner) DescribeTable(s *sql.DescribeTable) (*Result, error) {
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
