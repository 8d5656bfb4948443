package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDescribeTablesLike: the plugin's DESCRIBE TABLES LIKE ... COLUMNS
// LIKE ... answers its JDBC metadata columns (metadata.rst, examples 3
// and 4) on /_plugins/_sql.
func TestDescribeTablesLike(t *testing.T) {
	f := newFixture(t, 1)
	r := f.sql(200, "DESCRIBE TABLES LIKE 't'")
	var names []string
	for _, c := range r.Schema {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != strings.Join(describeColumns, ",") || len(names) != 24 {
		t.Errorf("columns %v", names)
	}
	got, _ := json.Marshal(r.Datarows)
	want := `[["sluice",null,"t","id",null,"long",null,null,null,10,2,null,null,null,null,null,0,"",null,null,null,null,"NO",""],` +
		`["sluice",null,"t","name",null,"keyword",null,null,null,10,2,null,null,null,null,null,1,"",null,null,null,null,"NO",""],` +
		`["sluice",null,"t","note",null,"keyword",null,null,null,10,2,null,null,null,null,null,2,"",null,null,null,null,"NO",""],` +
		`["sluice",null,"t","neg",null,"keyword",null,null,null,10,2,null,null,null,null,null,3,"",null,null,null,null,"NO",""]]`
	if string(got) != want {
		t.Errorf("rows %s\nwant %s", got, want)
	}
	r = f.sql(200, `describe tables like "%" columns like "n%e"`)
	got, _ = json.Marshal(r.Datarows)
	if r.Total != 2 || !strings.Contains(string(got), `"t","name"`) || !strings.Contains(string(got), `"t","note"`) {
		t.Errorf("COLUMNS LIKE: %s", got)
	}
	if r := f.sql(200, "DESCRIBE TABLES LIKE 'nope%'"); r.Total != 0 || len(r.Datarows) != 0 {
		t.Errorf("no table: %+v", r)
	}
}
