package functions_test

import (
	"testing"
	"time"

	"sluice/internal/expr"
	"sluice/internal/types"
)

func tm(s string) time.Time {
	us, ok := types.ParseTimestamp(s)
	if !ok {
		panic(s)
	}
	return types.FromMicros(us)
}

func TestDateTimeFunctions(t *testing.T) {
	ts := TS("2024-02-29 13:45:56.789")
	d := L("2024-02-29", types.Date)
	runScalar(t, []scalarCase{
		{"now", nil, fixedNow, ""},
		{"current_timestamp", nil, fixedNow, ""},
		{"current_date", nil, "2024-03-10", ""},
		{"year", []expr.Expr{ts}, int64(2024), ""},
		{"month", []expr.Expr{ts}, int64(2), ""},
		{"day", []expr.Expr{ts}, int64(29), ""},
		{"dayofmonth", []expr.Expr{d}, int64(29), ""},
		{"hour", []expr.Expr{ts}, int64(13), ""},
		{"minute", []expr.Expr{ts}, int64(45), ""},
		{"second", []expr.Expr{ts}, int64(56), ""},
		{"dayofweek", []expr.Expr{ts}, int64(5), ""}, // Thursday; Sunday is 1
		{"dayofyear", []expr.Expr{ts}, int64(60), ""},
		{"weekofyear", []expr.Expr{ts}, int64(9), ""},
		{"quarter", []expr.Expr{ts}, int64(1), ""},
		{"year", []expr.Expr{S("1969-12-31 23:00:00")}, int64(1969), ""},
		{"hour", []expr.Expr{TS("1969-12-31 23:00:00")}, int64(23), ""},
		{"year", []expr.Expr{Null()}, nil, ""},
		{"extract", []expr.Expr{S("month"), ts}, int64(2), ""},
		{"extract", []expr.Expr{S("fortnight"), ts}, nil, "unknown date/time field"},
		{"date_trunc", []expr.Expr{S("hour"), ts}, tm("2024-02-29 13:00:00"), ""},
		{"date_trunc", []expr.Expr{S("MONTH"), ts}, tm("2024-02-01"), ""},
		{"date_trunc", []expr.Expr{S("year"), ts}, tm("2024-01-01"), ""},
		{"date_trunc", []expr.Expr{S("quarter"), TS("2024-05-17 01:00:00")}, tm("2024-04-01"), ""},
		{"date_trunc", []expr.Expr{S("week"), ts}, tm("2024-02-26"), ""},
		{"date_trunc", []expr.Expr{S("day"), TS("1969-12-31 23:00:00")}, tm("1969-12-31"), ""},
		{"date_trunc", []expr.Expr{S("eon"), ts}, nil, "unknown date_trunc unit"},
		{"date_format", []expr.Expr{ts, S("yyyy-MM-dd HH:mm:ss.SSS")}, "2024-02-29 13:45:56.789", ""},
		{"date_format", []expr.Expr{ts, S("dd/MMM/yyyy:HH:mm:ss Z")}, "29/Feb/2024:13:45:56 +0000", ""},
		{"date_format", []expr.Expr{ts, S("EEEE 'at' h a")}, "Thursday at 1 PM", ""},
		{"date_format", []expr.Expr{ts, S("yyyy-QQ")}, "2024-01", ""}, // pyspark 3.5.3
		{"date_format", []expr.Expr{ts, S("MMMMM")}, nil, "DATETIME_PATTERN_RECOGNITION"},
		{"to_timestamp", []expr.Expr{S("2024-01-02T03:04:05Z")}, tm("2024-01-02 03:04:05"), ""},
		{"to_timestamp", []expr.Expr{S("02/01/2024 03:04"), S("dd/MM/yyyy HH:mm")}, tm("2024-01-02 03:04:00"), ""},
		{"to_timestamp", []expr.Expr{S("garbage")}, nil, ""},
		{"to_timestamp", []expr.Expr{S("10/Oct/2000:13:55:36 -0700"), S("dd/MMM/yyyy:HH:mm:ss Z")}, tm("2000-10-10 20:55:36"), ""},
		{"to_date", []expr.Expr{S("2024-03-01 10:00:00")}, "2024-03-01", ""},
		{"to_date", []expr.Expr{S("03.01.2024"), S("MM.dd.yyyy")}, "2024-03-01", ""},
		{"to_date", []expr.Expr{ts}, "2024-02-29", ""},
		{"from_unixtime", []expr.Expr{I(0)}, "1970-01-01 00:00:00", ""},
		{"from_unixtime", []expr.Expr{I(86400), S("yyyy/MM/dd")}, "1970/01/02", ""},
		{"unix_timestamp", nil, fixedNow.Unix(), ""},
		{"unix_timestamp", []expr.Expr{TS("1970-01-01 00:01:00")}, int64(60), ""},
		{"unix_timestamp", []expr.Expr{S("1970-01-01 00:00:10")}, int64(10), ""},
		{"unix_timestamp", []expr.Expr{S("01/01/1970"), S("MM/dd/yyyy")}, int64(0), ""},
		{"datediff", []expr.Expr{S("2024-03-01"), d}, int64(1), ""},
		{"datediff", []expr.Expr{ts, TS("2024-03-10 00:00:00")}, int64(-10), ""},
		{"date_add", []expr.Expr{d, I(1)}, "2024-03-01", ""},
		{"date_sub", []expr.Expr{d, I(29)}, "2024-01-31", ""},
		{"+", []expr.Expr{d, L(int32(1), types.Int)}, "2024-03-01", ""},
		{"-", []expr.Expr{d, L("1 month", types.Interval)}, "2024-01-29", ""},
		{"+", []expr.Expr{d, L("1 hour", types.Interval)}, tm("2024-02-29 01:00:00"), ""},
		{"-", []expr.Expr{TS("2024-03-31 00:00:00"), L("1 month", types.Interval)}, tm("2024-02-29"), ""},
		{"-", []expr.Expr{L("2024-03-01", types.Date), d}, int64(1), ""},
		{"+", []expr.Expr{S("2024-01-01"), L("1 day", types.Interval)}, tm("2024-01-02"), ""},
		{"+", []expr.Expr{ts, I(1)}, nil, "cannot apply '+' to TIMESTAMP and BIGINT"},
	})
}

func TestDateTruncColumn(t *testing.T) {
	c, b := column(t, types.Timestamp, "2024-01-01 10:15:00", nil, "2024-01-01 10:59:59.999")
	defer b.Release()
	got, _, err := call(t, b, "date_trunc", S("hour"), c)
	if err != nil {
		t.Fatal(err)
	}
	if !eq(got, []any{tm("2024-01-01 10:00:00"), nil, tm("2024-01-01 10:00:00")}) {
		t.Errorf("date_trunc = %v", got)
	}
	if _, _, err := call(t, b, "year", L(int32(1), types.Int)); err == nil {
		t.Error("year(INT) should fail")
	}
	_ = time.UTC
}
