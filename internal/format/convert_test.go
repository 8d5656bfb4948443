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
