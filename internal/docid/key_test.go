package docid

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// pieces are what random texts are made of: the separator, the escape,
// the tokens, their neighbours and plain text.
var pieces = []string{"", "|", `\`, `\N`, `\E`, "N", "E", "a", "x|y", `\|`, "||", `\\`, "é", " "}

func randomPart(r *rand.Rand) Part {
	if r.IntN(5) == 0 {
		return Part{Null: true}
	}
	var b strings.Builder
	for n := r.IntN(4); n > 0; n-- {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return Part{Text: b.String()}
}

// TestKeyInjective feeds Key random tuples of each arity and checks
// that no two distinct tuples share an id, and that no id is empty.
func TestKeyInjective(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 25))
	for arity := 1; arity <= 4; arity++ {
		seen := map[string][]Part{}
		for range 100_000 {
			parts := make([]Part, arity)
			for i := range parts {
				parts[i] = randomPart(r)
			}
			id := Key(parts)
			if id == "" {
				t.Fatalf("%v: empty id", parts)
			}
			if old, ok := seen[id]; ok && !reflect.DeepEqual(old, parts) {
				t.Fatalf("arity %d: %+v and %+v both give id %q", arity, old, parts, id)
			}
			seen[id] = parts
		}
	}
}

// TestKeyCases pins the documented encoding: ids of plain keys are as
// before (values joined by "|"), the reported collisions are gone.
func TestKeyCases(t *testing.T) {
	v := func(s string) Part { return Part{Text: s} }
	null := Part{Null: true}
	for _, tc := range []struct {
		parts []Part
		want  string
	}{
		{[]Part{v("web-1")}, "web-1"},
		{[]Part{v("a|b")}, "a|b"},
		{[]Part{v(`C:\x`)}, `C:\x`},
		{[]Part{v(`\N`)}, `\\N`},
		{[]Part{null}, `\N`},
		{[]Part{v("")}, `\E`},
		{[]Part{v("web-1"), v("3")}, "web-1|3"},
		{[]Part{v("x|y"), v("z")}, `x\|y|z`},
		{[]Part{v("x"), v("y|z")}, `x|y\|z`},
		{[]Part{null, v("1")}, `\N|1`},
		{[]Part{v(`\N`), v("1")}, `\\N|1`},
		{[]Part{v(""), v("")}, "|"},
	} {
		if got := Key(tc.parts); got != tc.want {
			t.Errorf("Key(%+v) = %q, want %q", tc.parts, got, tc.want)
		}
	}
}
