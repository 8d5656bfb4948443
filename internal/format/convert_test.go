package format

import (
	"testing"

	"sluice/internal/types"
)

func TestFastISOMatchesParseTimestamp(t *testing.T) {
	for _, s := range []string{
		"2026-11-30T04:36:56Z", "2026-11-30 04:36:56", "2026-11-30T04:36:56.123456Z", "2026-11-30T04:36:56.1+02:00",
		"1969-12-31T23:59:59.999999Z", "2000-02-29T00:00:00-0530", "0001-01-01T00:00:00Z", "1600-03-01T12:00:00Z",
		"2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-30T24:00:00Z",
		"2026-11-30T04:36:56.123456789Z", "2026-11-30T04:36:56.Z", "2026-11-30T04:36:56+0", "2026-11-30T04:36:56 ",
	} {
		want, wok := types.ParseTimestamp(s)
		got, ok := fastISO([]byte(s))
		// fastISO may accept more (a zone without a colon) but never disagrees.
		if ok && wok && got != want {
			t.Errorf("%s: fast %d %v, slow %d %v", s, got, ok, want, wok)
		}
		var c scalar
		got2, ok2 := c.parseTimestampText([]byte(s))
		if wok && (!ok2 || got2 != want) {
			t.Errorf("%s: parseTimestampText %d %v, want %d %v", s, got2, ok2, want, wok)
		}
	}
}

// A run of timestamps read through one memo (same date and hour, a new
// hour, a new day, a bad one between, the same hour with a bad rest, the
// other separator) reads as each one does alone.
func TestISOMemoReadsAsFastISO(t *testing.T) {
	var m isoMemo
	for _, s := range []string{
		"2026-11-01T00:00:00.294Z", "2026-11-01T00:00:02.045Z", "2026-11-01T00:59:59.999999Z",
		"2026-11-01T01:00:00Z", "2026-11-01T01:00:00+02:00", "2026-11-01T01:00:00.5-0530",
		"2026-11-01T01:60:00Z", "2026-11-01T01:00:61Z", "2026-11-01T01:00:00.Z", "2026-11-01T01:0x:00Z",
		"2026-11-01T01:00:00", "2026-11-01 01:00:00", "2026-11-01T01:00:00", "2026-11-02T01:00:00",
		"2026-11-31T01:00:00", "2026-11-31T01:00:01", "2026-11-30T24:00:00", "2026-11-30T23:00:00",
		"2026-11-30T23:00", "2026-11-30T23:", "x", "", "2024-02-29T23:15:00Z", "2023-02-29T23:15:00Z",
		"1969-12-31T23:59:59.999999Z", "1969-12-31T23:00:00Z",
	} {
		want, wok := fastISO([]byte(s))
		got, ok := m.fastISO([]byte(s))
		if ok != wok || got != want {
			t.Errorf("%s: memo %d %v, fastISO %d %v", s, got, ok, want, wok)
		}
		if ts, tok := types.ParseTimestamp(s); tok && wok && ts != want {
			t.Errorf("%s: fastISO %d, ParseTimestamp %d", s, want, ts)
		}
	}
}
