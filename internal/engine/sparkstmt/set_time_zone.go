package sparkstmt

import (
	"context"
	"regexp"
	"strings"
	"time"

	"sluice/internal/sql"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// TimeZoneKey is Spark's session time zone setting, which SET TIME ZONE
// sets.
const TimeZoneKey = "spark.sql.session.timeZone"

// SetTimeZone runs SET TIME ZONE. Sluice computes and prints timestamps
// in UTC only, so a zone is taken when it is UTC all year round ('UTC',
// 'Etc/UTC', '+00:00', INTERVAL 0 HOURS, LOCAL on a machine in UTC) and
// refused otherwise: accepting it would silently shift nothing.
func (e *Runner) SetTimeZone(ctx context.Context, s *sql.SetTimeZone) (*Result, error) {
	zone := s.Zone
	switch {
	case s.Local:
		if !alwaysUTC(time.Local) {
			return nil, timeZoneError("LOCAL (" + time.Now().Format("-07:00") + ")")
		}
		zone = "UTC"
	case s.Interval != nil:
		iv, err := types.ParseInterval(s.Interval.Value)
		if err != nil {
			return nil, usererr.Errorf(usererr.Invalid, "SET TIME ZONE %s: %v", s.Interval, err)
		}
		if iv.Months != 0 || iv.Days != 0 || iv.Nanoseconds != 0 {
			return nil, timeZoneError(s.Interval.String())
		}
		zone = "+00:00"
	default:
		if err := CheckUTCZone(zone); err != nil {
			return nil, err
		}
	}
	e.h.Set(ctx, TimeZoneKey, zone)
	return stringRows([]string{"key", "value"}, [][]string{{TimeZoneKey, zone}}), nil
}

var zoneOffset = regexp.MustCompile(`^(?i:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$`)

// CheckUTCZone is nil for a zone name or offset that is UTC all year.
func CheckUTCZone(zone string) error {
	z := strings.TrimSpace(zone)
	if m := zoneOffset.FindStringSubmatch(z); m != nil {
		if strings.Trim(m[2], "0") == "" && strings.Trim(m[3], "0") == "" {
			return nil
		}
		return timeZoneError("'" + zone + "'")
	}
	switch strings.ToUpper(z) {
	case "UTC", "Z", "GMT", "UT", "ETC/UTC", "ETC/GMT", "ETC/UCT", "UCT", "ZULU":
		return nil
	}
	loc, err := time.LoadLocation(z)
	if err != nil {
		return usererr.Errorf(usererr.Invalid, "SET TIME ZONE '%s': no such time zone", zone)
	}
	if !alwaysUTC(loc) {
		return timeZoneError("'" + zone + "'")
	}
	return nil
}

// alwaysUTC reports whether loc is UTC in winter and in summer.
func alwaysUTC(loc *time.Location) bool {
	y := time.Now().Year()
	for _, m := range []time.Month{time.January, time.July} {
		if _, off := time.Date(y, m, 1, 12, 0, 0, 0, loc).Zone(); off != 0 {
			return false
		}
	}
	return true
}

func timeZoneError(zone string) error {
	return usererr.Errorf(usererr.Invalid, "SET TIME ZONE %s: Sluice computes and prints timestamps in UTC only, so a session time zone other than UTC is not supported (convert with from_utc_timestamp(ts, 'zone') where a local time is wanted)", zone)
}
