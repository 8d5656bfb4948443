package flint

import (
	"encoding/json"
	"testing"

	"sluice/internal/skipindex"
)

// TestStoredFormats: definitions are stored as this JSON in data
// directories that must keep loading; a change to a key breaks them.
func TestStoredFormats(t *testing.T) {
	view := ViewSpec{Query: "SELECT a FROM t", AutoRefresh: true, Interval: "1 minute", Checkpoint: "/cp", Options: map[string]string{"output_mode": "append"}}
	index := indexSpec{Flint: "flint_x", Kind: kindSkipping, Table: "default.t", Name: "c", IndexTable: "default.flint_x",
		Columns: []skipindex.Column{}, Covered: []string{"a"}, Where: "a > 1", AutoRefresh: true, Interval: "1 minute",
		Checkpoint: "/cp", Options: map[string]string{"k": "v"}}
	for _, tc := range []struct {
		v    any
		want string
	}{
		{view, `{"query":"SELECT a FROM t","auto_refresh":true,"refresh_interval":"1 minute","checkpoint":"/cp","options":{"output_mode":"append"}}`},
		{ViewSpec{Query: "q"}, `{"query":"q","auto_refresh":false,"checkpoint":""}`},
		{index, `{"flint":"flint_x","kind":"skipping","table":"default.t","name":"c","index_table":"default.flint_x","covered":["a"],"where":"a \u003e 1","auto_refresh":true,"refresh_interval":"1 minute","checkpoint":"/cp","options":{"k":"v"}}`},
		{indexSpec{Flint: "f", Kind: kindCovering, Table: "t", IndexTable: "v"}, `{"flint":"f","kind":"covering","table":"t","index_table":"v"}`},
	} {
		got, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("stored as\n%s\nwant\n%s", got, tc.want)
		}
	}
}
