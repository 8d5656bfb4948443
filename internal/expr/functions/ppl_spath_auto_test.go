package functions

import (
	"maps"
	"testing"
)

func TestPPLSpathAuto(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[string]any
	}{
		{`{"user":{"name":"John","age":30},"tags":["java","sql"],"active":true}`,
			map[string]any{"user.name": "John", "user.age": "30", "tags{}": "[java, sql]", "active": "true"}},
		{`{"tags":["python"],"active":null}`, map[string]any{"tags{}": "python", "active": "null"}},
		{`{"user":{"name":"Bob"},"user.name":"Bobby"}`, map[string]any{"user.name": "[Bob, Bobby]"}},
		{`{"c":[{"b":2},{"b":3}],"e":[]}`, map[string]any{"c{}.b": "[2, 3]"}},
		{`{}`, map[string]any{}},
		{`{"a":1,"b":`, map[string]any{"a": "1"}},
	} {
		got, err := spathAutoRow(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.in, got, c.want)
		}
	}
}
