package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"sluice/internal/engine"
)

func TestTableWidth(t *testing.T) {
	long := strings.Repeat("x", 200)
	r := engine.StringRows([]string{"id", "value"}, [][]string{{"1", long}, {"2", "short"}})
	var buf bytes.Buffer
	if err := (Table{}).Format(&buf, r.Schema, r.Batches); err != nil {
		t.Fatal(err)
	}
	// Not a terminal: every value whole.
	if !strings.Contains(buf.String(), "| "+long+" |") {
		t.Errorf("value cut without a width:\n%s", buf.String())
	}
	buf.Reset()
	if err := (Table{Width: 30}).Format(&buf, r.Schema, r.Batches); err != nil {
		t.Fatal(err)
	}
	want := `+----+-----------------------+
| id | value                 |
+----+-----------------------+
| 1  | xxxxxxxxxxxxxxxxxxxx… |
| 2  | short                 |
+----+-----------------------+
(2 rows)
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	for _, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		if runewidth.StringWidth(l) > 30 {
			t.Errorf("line wider than 30: %q", l)
		}
	}
}

func TestFitWidths(t *testing.T) {
	tests := []struct {
		widths []int
		avail  int
		want   []int
	}{
		{[]int{3, 4}, 10, []int{3, 4}},
		{[]int{3, 40, 30}, 40, []int{3, 19, 18}},
		{[]int{50, 50}, 4, []int{6, 6}}, // too narrow: the minimum, overflowing
	}
	for _, tt := range tests {
		got := fitWidths(tt.widths, tt.avail)
		if !slices.Equal(got, tt.want) {
			t.Errorf("fitWidths(%v, %d) = %v, want %v", tt.widths, tt.avail, got, tt.want)
		}
	}
}

func TestTableMultiLine(t *testing.T) {
	r := engine.StringRows([]string{"plan"}, [][]string{{"Project\n  Filter\n    Scan t\n"}})
	var buf bytes.Buffer
	if err := (Table{}).Format(&buf, r.Schema, r.Batches); err != nil {
		t.Fatal(err)
	}
	want := `+------------+
| plan       |
+------------+
| Project    |
|   Filter   |
|     Scan t |
+------------+
(1 row)
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
