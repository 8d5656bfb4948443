package engine

import (
	"strings"
	"testing"
)

// TestAlterTableRefusesWhatStreamsUse: columns, name and place of a
// table a stream reads or writes stay as its definition and checkpoint
// know them; its TBLPROPERTIES, tags only, may change.
func TestAlterTableRefusesWhatStreamsUse(t *testing.T) {
	eng := newTestEngine(t)
	mustExecAll(t, eng,
		"CREATE TABLE src (id INT) USING json LOCATION '"+t.TempDir()+"'",
		"CREATE TABLE dst (id INT) USING json LOCATION '"+t.TempDir()+"'",
		"CREATE VIEW v AS SELECT id FROM src",
		"INSERT STREAM INTO dst SELECT id FROM v WITH (name = 'cp', trigger = 'once')")
	for _, c := range []struct{ stmt, want string }{
		{"ALTER TABLE src ADD COLUMNS (x INT)", "stream cp reads it"},
		{"ALTER TABLE src RENAME TO src2", "stream cp reads it"},
		{"ALTER TABLE dst SET LOCATION '/elsewhere'", "stream cp writes it"},
	} {
		_, err := eng.Execute(t.Context(), c.stmt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.stmt, err, c.want)
		}
	}
	mustExec(t, eng, "ALTER TABLE src SET TBLPROPERTIES ('owner' = 'me')")
	if rows := strings.Join(sortedRows(t, eng, "SHOW COLUMNS IN src"), ","); rows != "id" {
		t.Errorf("src's columns = %s, want id", rows)
	}
}
