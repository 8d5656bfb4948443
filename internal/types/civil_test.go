package types

import (
	"testing"
	"time"
)

// TestCivilDate agrees with time.Date on every day of years -400..2400,
// both ways.
func TestCivilDate(t *testing.T) {
	start := time.Date(-400, 1, 1, 0, 0, 0, 0, time.UTC)
	for day, at := start.Unix()/86400, start; at.Year() <= 2400; day, at = day+1, at.AddDate(0, 0, 1) {
		y, m, d := CivilDate(day)
		if y != int64(at.Year()) || m != int64(at.Month()) || d != int64(at.Day()) {
			t.Fatalf("CivilDate(%d) = %d-%d-%d, want %s", day, y, m, d, at.Format("2006-01-02"))
		}
		if got := DaysFromCivil(y, m, d); got != day {
			t.Fatalf("DaysFromCivil(%d, %d, %d) = %d, want %d", y, m, d, got, day)
		}
	}
}
