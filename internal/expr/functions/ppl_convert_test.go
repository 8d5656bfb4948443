package functions

import "testing"

func TestPPLConversions(t *testing.T) {
	cases := []struct {
		kind, in string
		want     float64
		ok       bool
	}{
		{"auto", "39225", 39225, true},
		{"auto", "100m", 102400, true},
		{"auto", "2.5g", 2621440, true},
		{"auto", "1,234", 1234, true},
		{"auto", "abc", 0, false},
		{"num", "1,234", 1234, true},
		{"num", "12abc", 12, true},
		{"num", "2.000 sec", 2, true},
		{"num", "12 34", 0, false},
		{"num", "x12", 0, false},
		{"num", "1e3", 1000, true},
		{"rmcomma", "1,234,567.5", 1234567.5, true},
		{"rmcomma", "1,234a", 0, false},
		{"rmunit", "2.000 sec", 2, true},
		{"rmunit", "-5kb", -5, true},
		{"rmunit", "kb5", 0, false},
		{"memk", "100", 100, true},
		{"memk", "1G", 1048576, true},
		{"memk", "1t", 0, false},
		{"dur2sec", "01:02:03", 3723, true},
		{"dur2sec", "2+01:00:00", 176400, true},
		{"dur2sec", "24:00:00", 0, false},
		{"dur2sec", "90", 90, true},
		{"mstime", "01:02.5", 62.5, true},
		{"mstime", "59.123", 59.123, true},
		{"mstime", "61", 61, true},
		{"mstime", "1:61", 0, false},
	}
	for _, c := range cases {
		got, ok := pplConversions[c.kind](c.in)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("%s(%q) = %v, %v; want %v, %v", c.kind, c.in, got, ok, c.want, c.ok)
		}
	}
}
