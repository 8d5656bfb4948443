package functions_test

import (
	"reflect"
	"testing"

	"sluice/internal/expr"
	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

func TestWindows(t *testing.T) {
	c, b := column(t, types.Timestamp, "2024-01-01 10:07:30", nil, "1969-12-31 23:58:00")
	defer b.Release()
	win := func(s, e string) types.StructValue {
		return types.StructValue{Names: []string{"start", "end"}, Values: []any{tm(s), tm(e)}}
	}
	for _, fn := range []string{"tumble", "window"} {
		for _, size := range []expr.Expr{S("5 minutes"), L("5 minutes", types.Interval)} {
			got, typ, err := call(t, b, fn, c, size)
			if err != nil {
				t.Fatalf("%s: %v", fn, err)
			}
			want := []any{win("2024-01-01 10:05:00", "2024-01-01 10:10:00"), nil, win("1969-12-31 23:55:00", "1970-01-01 00:00:00")}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s(c, %s) = %v, want %v", fn, size, got, want)
			}
			if types.SQLName(typ) != "STRUCT<start: TIMESTAMP, `end`: TIMESTAMP>" && types.SQLName(typ) != "STRUCT<start: TIMESTAMP, end: TIMESTAMP>" {
				t.Errorf("type %s", types.SQLName(typ))
			}
		}
	}
	for _, bad := range []struct {
		args []expr.Expr
		err  string
	}{
		{[]expr.Expr{c, S("0 seconds")}, "positive interval"},
		{[]expr.Expr{c, S("soon")}, "invalid interval"},
		{[]expr.Expr{c, c}, "constant interval"},
		{[]expr.Expr{c, S("10 minutes"), S("5 minutes")}, "use hop"},
	} {
		if _, _, err := call(t, b, "window", bad.args...); err == nil || !contains(err.Error(), bad.err) {
			t.Errorf("window%v: %v, want %q", bad.args, err, bad.err)
		}
	}
	min := int64(60_000_000)
	if got := functions.HopStarts(7*min+30_000_000, 10*min, 5*min); !reflect.DeepEqual(got, []int64{0, 5 * min}) {
		t.Errorf("HopStarts = %v", got)
	}
	if got := functions.HopStarts(-1, 10*min, 5*min); !reflect.DeepEqual(got, []int64{-10 * min, -5 * min}) {
		t.Errorf("HopStarts(-1) = %v", got)
	}
	if !isGenerator("hop") || !expr.IsFunction("session") || isGenerator("session") {
		t.Error("hop is a generator and session a window entry")
	}
	if _, err := expr.Call("session", c, S("5 minutes")); err == nil {
		t.Error("session has no scalar form")
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || len(s) >= len(sub) && (s == sub || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
