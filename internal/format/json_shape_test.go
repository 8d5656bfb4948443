package format

import (
	"strings"
	"testing"

	"sluice/internal/types"
)

// Each line read after others (whose keys the reader remembers) gives
// the row it gives read alone: keys reordered, added, dropped, escaped,
// differing only in case, one a prefix of another, duplicated.
func TestJSONKeyShapeChangesNothing(t *testing.T) {
	lines := []string{
		`{"a":1,"ab":"x","B":true,"n":{"a":2}}`,
		`{"a":3,"ab":"y","B":false,"n":{"a":4}}`,
		`{"ab":"z","a":5,"n":null}`,
		`{"a":6,"ab":"w","b":true,"B":false}`,
		`{"A":7,"ab":"v","b":true}`,
		`{"\u0061":8,"a\u0062":"u","B":true}`,
		`{"a":9,"a":10,"ab":"t"}`,
		`{"abc":1,"a":11}`,
		`{"a":12,"ab":"s","B":true,"n":{"a":13},"extra":[1,{"a":2}]}`,
		`{"a" : 14 , "ab":"r"}`,
		`{}`,
		`{"a":15,"ab":"q","B":true,"n":{"a":16}}`,
	}
	schema := schemaOf(fld("a", types.BigInt), fld("ab", types.String), fld("B", types.Boolean),
		fld("n", types.Struct(fld("a", types.BigInt))))
	var want []string
	for _, l := range lines {
		want = append(want, mustRead(t, memFile("one.json", []byte(l+"\n")), schema, Options{Format: "json"})...)
	}
	got := mustRead(t, memFile("all.json", []byte(strings.Join(lines, "\n")+"\n")), schema, Options{Format: "json"})
	eqRows(t, got, want)
}
