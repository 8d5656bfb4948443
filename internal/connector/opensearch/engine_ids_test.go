package opensearch_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// TestEngineInsertIDs (issue 25) writes through the engine into
// OpenSearch: equal rows of separate INSERTs into a table without an id
// stay separate documents (they were one: every INSERT is epoch 0), and
// composite ids keep keys whose values hold the separator apart.
func TestEngineInsertIDs(t *testing.T) {
	n := needNode(t)
	eng, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	query := func(sql string) []string {
		t.Helper()
		res, err := eng.Execute(ctx, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		var rows []string
		for _, r := range res {
			for _, b := range r.Batches {
				for i := 0; i < int(b.NumRows()); i++ {
					row := make([]string, b.NumCols())
					for c := range row {
						row[c] = types.FormatValue(b.Column(c), i)
					}
					rows = append(rows, strings.Join(row, ","))
				}
			}
		}
		sort.Strings(rows)
		return rows
	}
	query(fmt.Sprintf(`CREATE TABLE os_rows (k STRING, v INT) USING opensearch
		OPTIONS (endpoint '%s', index 'ids-rows', refresh 'wait_for')`, n.URL))
	for _, values := range []string{"('a', 1)", "('a', 1)", "('a', 1), ('a', 1)"} {
		query("INSERT INTO os_rows VALUES " + values)
	}
	if got := query("SELECT count(*) FROM os_rows"); strings.Join(got, " ") != "4" {
		t.Errorf("4 equal rows in 3 INSERTs left %v documents", got)
	}
	query(fmt.Sprintf(`CREATE TABLE os_pairs (a STRING, b STRING, n INT) USING opensearch
		OPTIONS (endpoint '%s', index 'ids-pairs', id 'a,b', refresh 'wait_for')`, n.URL))
	query(`INSERT INTO os_pairs VALUES ('x|y', 'z', 1), ('x', 'y|z', 2), ('w', 'v', 3)`)
	query(`INSERT INTO os_pairs VALUES ('w', 'v', 30)`)
	got := strings.Join(query("SELECT a, b, n FROM os_pairs"), " ")
	if want := "w,v,30 x,y|z,2 x|y,z,1"; got != want {
		t.Errorf("composite ids: got %s, want %s", got, want)
	}
}
