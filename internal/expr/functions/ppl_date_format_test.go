package functions

import (
	"testing"
	"time"
)

// TestMySQLWeek checks calc_week against MySQL's WEEK(d, mode) answers.
func TestMySQLWeek(t *testing.T) {
	for _, c := range []struct {
		date           string
		spec           byte
		week, weekYear int
	}{
		{"2024-01-01", 'U', 0, 2024}, {"2024-01-01", 'u', 1, 2024},
		{"2024-01-01", 'V', 53, 2023}, {"2024-01-01", 'v', 1, 2024},
		{"2021-01-02", 'v', 53, 2020}, {"2021-01-02", 'V', 52, 2020},
		{"2026-12-31", 'v', 53, 2026}, {"2025-12-29", 'v', 1, 2026},
	} {
		d, _ := time.Parse("2006-01-02", c.date)
		w, y := mysqlWeek(d, weekBehaviour[c.spec])
		if w != c.week || y != c.weekYear {
			t.Errorf("%s %%%c: week %d of %d, want %d of %d", c.date, c.spec, w, y, c.week, c.weekYear)
		}
	}
	for d, want := range map[int]string{1: "st", 2: "nd", 3: "rd", 4: "th", 11: "th", 12: "th", 13: "th", 21: "st", 22: "nd", 23: "rd", 31: "st"} {
		if got := englishSuffix(d); got != want {
			t.Errorf("day %d: %s, want %s", d, got, want)
		}
	}
}
