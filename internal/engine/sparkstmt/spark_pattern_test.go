package sparkstmt

import (
	"testing"
)

func TestSparkPattern(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"", "people", true},
		{"peo*", "people", true},
		{"peo*", "apeople", false},
		{"h|peo*", "h", true},
		{"h|peo*", "hx", false},
		{"*e*", "people", true},
		{"uPPer", "upper", true},
		{"a*s", "abs", true},
		{"a*s", "absx", false},
		{"(", "(", false},
	} {
		if got := sparkPattern(c.pattern, c.name); got != c.want {
			t.Errorf("sparkPattern(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}
