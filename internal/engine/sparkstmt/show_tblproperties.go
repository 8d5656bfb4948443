package sparkstmt

import (
	"sort"

	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// ShowTblProperties runs SHOW TBLPROPERTIES t [('key')].
func (e *Runner) ShowTblProperties(s *sql.ShowTblProperties) (*Result, error) {
	t, err := e.catalog.Table(s.Name)
	if err != nil {
		return nil, err
	}
	if s.Key != "" {
		v, ok := t.Properties[s.Key]
		if !ok {
			return nil, usererr.Errorf(usererr.NotFound, "SHOW TBLPROPERTIES %s: table has no property %q", s.Name, s.Key)
		}
		return stringRows([]string{"key", "value"}, [][]string{{s.Key, v}}), nil
	}
	keys := make([]string, 0, len(t.Properties))
	for k := range t.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rows := make([][]string, len(keys))
	for i, k := range keys {
		rows[i] = []string{k, redact(k, t.Properties[k])}
	}
	return stringRows([]string{"key", "value"}, rows), nil
}
