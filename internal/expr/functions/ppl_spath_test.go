package functions

import (
	"encoding/json"
	"testing"
)

func TestPPLSpath(t *testing.T) {
	doc := `{"a": {"b c": [1, {"d": "x"}], "e": null}, "l": [{"id": 1}, {"id": 2}, {"no": 3}], "s": "t"}`
	cases := []struct {
		path string
		want any
	}{
		{"s", "t"},
		{"a.e", nil},
		{"a['b c']{0}", "1"},
		{"a['b c']{1}.d", "x"},
		{"a['b c']{2}", nil},
		{"l{}.id", "[1,2]"},
		{"l{1}", `{"id":2}`},
		{"a.missing", nil},
	}
	for _, c := range cases {
		steps, err := parseSpath(c.path)
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		var got any
		if raw, ok := spathWalk(json.RawMessage(doc), steps); ok {
			got = spathText(raw)
		}
		if got != c.want {
			t.Errorf("%s = %v, want %v", c.path, got, c.want)
		}
	}
	for _, bad := range []string{"", ".a", "a.", "l{x}", "a['b"} {
		if _, err := parseSpath(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}
