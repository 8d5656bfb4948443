package functions

import (
	"strconv"
	"time"

	"sluice/internal/types"
)

// ppl_convert_tz(ts, from, to) is PPL's (MySQL's) CONVERT_TZ: ts read in
// zone from, given in zone to. A zone is an offset +hh:mm between -13:59
// and +14:00, or a name (Europe/Paris); anything else, or text that is
// no valid date and time (2008-02-30), gives NULL.
var bindPPLConvertTZ = rowFn("ppl_convert_tz", types.Timestamp, ps(pString, pString), func(v []any) (any, error) {
	us, ok := pplStrictTimestamp(v[0].(string))
	if !ok {
		return nil, nil
	}
	from, ok1 := pplZoneOffset(v[1].(string), us)
	to, ok2 := pplZoneOffset(v[2].(string), us)
	if !ok1 || !ok2 {
		return nil, nil
	}
	return us + (to-from)*1_000_000, nil
})

// pplStrictTimestamp reads yyyy-MM-dd[ HH:mm:ss[.ffffff]], refusing days
// past the month's end.
func pplStrictTimestamp(s string) (int64, bool) {
	for _, l := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02T15:04:05.999999999", "2006-01-02"} {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t.UnixMicro(), true
		}
	}
	return 0, false
}

// pplZoneOffset is a zone's offset from UTC in seconds at us.
func pplZoneOffset(z string, us int64) (int64, bool) {
	if len(z) == 6 && (z[0] == '+' || z[0] == '-') && z[3] == ':' {
		h, err1 := strconv.Atoi(z[1:3])
		m, err2 := strconv.Atoi(z[4:6])
		if err1 != nil || err2 != nil || m > 59 {
			return 0, false
		}
		off := int64(h*3600 + m*60)
		if z[0] == '-' {
			off = -off
		}
		if off < -(13*3600+59*60) || off > 14*3600 {
			return 0, false
		}
		return off, true
	}
	loc, err := time.LoadLocation(z)
	if err != nil || z == "" || z == "Local" {
		return 0, false
	}
	_, off := types.FromMicros(us).In(loc).Zone()
	return int64(off), true
}
