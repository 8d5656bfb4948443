package functions

import (
	"strings"
	"time"

	"sluice/internal/types"
)

// ppl_datetime(s[, zone]) is PPL's DATETIME: the text as a TIMESTAMP, an
// offset written after it (2004-02-28 23:00:00-10:00) taken into account,
// given in zone (+hh:mm from -13:59 to +14:00, or a name) when there is
// one; NULL for an invalid zone or text.
var bindPPLDatetime = rowFn("ppl_datetime", types.Timestamp, ps(pString, pString), func(v []any) (any, error) {
	s := strings.TrimSpace(v[0].(string))
	us, ok := int64(0), false
	for _, l := range []string{"2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05-07:00", "2006-01-02T15:04:05.999999999-07:00"} {
		if t, err := time.Parse(l, s); err == nil {
			us, ok = t.UnixMicro(), true
			break
		}
	}
	if !ok {
		if us, ok = pplStrictTimestamp(s); !ok {
			return nil, nil
		}
	}
	if len(v) == 1 {
		return us, nil
	}
	off, ok := pplZoneOffset(v[1].(string), us)
	if !ok {
		return nil, nil
	}
	return us + off*1_000_000, nil
})

// mysqlLayout turns MySQL's STR_TO_DATE specifiers into a Go layout;
// false for one it cannot read.
func mysqlLayout(f string) (string, bool) {
	spec := map[byte]string{
		'Y': "2006", 'y': "06", 'm': "1", 'c': "1", 'd': "2", 'e': "2", 'H': "15", 'k': "15",
		'h': "3", 'I': "3", 'l': "3", 'i': "04", 's': "05", 'S': "05", 'p': "PM", 'b': "Jan",
		'M': "January", 'a': "Mon", 'W': "Monday", 'T': "15:04:05", 'r': "03:04:05 PM",
		'f': "000000", '%': "%",
	}
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		l, ok := spec[f[i]]
		if !ok {
			return "", false
		}
		b.WriteString(l)
	}
	return b.String(), true
}

// ppl_str_to_date(s, format) is PPL's (MySQL's) STR_TO_DATE with MySQL's
// specifiers (%Y %y %m %c %d %e %H %k %h %I %l %i %s %S %p %b %M %a %W
// %T %r %f %%): a TIMESTAMP, NULL when s does not fit.
var bindPPLStrToDate = rowFn("ppl_str_to_date", types.Timestamp, ps(pString, pString), func(v []any) (any, error) {
	l, ok := mysqlLayout(v[1].(string))
	if !ok {
		return nil, nil
	}
	t, err := time.ParseInLocation(l, strings.TrimSpace(v[0].(string)), time.UTC)
	if err != nil {
		return nil, nil
	}
	return t.UnixMicro(), nil
})
