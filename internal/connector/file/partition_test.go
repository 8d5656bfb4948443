package file

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

func TestParsePartitionPath(t *testing.T) {
	cases := []struct {
		rel  string
		want []partSegment
	}{
		{"a.json", nil},
		{"year=2026/month=11/a.json", []partSegment{{Name: "year", Value: "2026"}, {Name: "month", Value: "11"}}},
		{"year=2026/raw/a.json", []partSegment{{Name: "year", Value: "2026"}}},
		{"k=__HIVE_DEFAULT_PARTITION__/a.json", []partSegment{{Name: "k", Value: hiveDefaultPartition, Null: true}}},
		{"ts=2026-11-30 04%3A00%3A00/a.json", []partSegment{{Name: "ts", Value: "2026-11-30 04:00:00"}}},
		{"k=/a.json", []partSegment{{Name: "k", Value: ""}}},
		{"=x/a.json", nil},
		{"dir/k=v.json", nil},
	}
	for _, c := range cases {
		if got := parsePartitionPath(c.rel); !reflect.DeepEqual(got, c.want) {
			t.Errorf("parsePartitionPath(%q) = %+v, want %+v", c.rel, got, c.want)
		}
	}
}

func TestEscapePathNameRoundTrip(t *testing.T) {
	for _, s := range []string{"plain", "a/b", "2026-11-30 04:00:00", "100%", "x=y", "ünï"} {
		if got := unescapePathName(escapePathName(s)); got != s {
			t.Errorf("round trip of %q gave %q", s, got)
		}
	}
	if got := escapePathName("a/b:c"); got != "a%2Fb%3Ac" {
		t.Errorf("escapePathName = %q", got)
	}
}

func TestInferPartitionType(t *testing.T) {
	seg := func(vals ...string) []partSegment {
		var out []partSegment
		for _, v := range vals {
			out = append(out, partSegment{Name: "c", Value: v, Null: v == hiveDefaultPartition})
		}
		return out
	}
	cases := []struct {
		vals []string
		want arrow.DataType
	}{
		{[]string{"2026", "2025"}, types.Int},
		{[]string{"01", "12"}, types.Int},
		{[]string{"1", "9999999999"}, types.BigInt},
		{[]string{"2026-11-30", "2026-12-01"}, types.Date},
		{[]string{"2026-11-30", "x"}, types.String},
		{[]string{"1", "x"}, types.String},
		{[]string{hiveDefaultPartition, "3"}, types.Int},
		{[]string{hiveDefaultPartition}, types.String},
		{[]string{"2026-1-5"}, types.String},
	}
	for _, c := range cases {
		if got := inferPartitionType(seg(c.vals...)); !arrow.TypeEqual(got, c.want) {
			t.Errorf("inferPartitionType(%v) = %s, want %s", c.vals, got, c.want)
		}
	}
}

func TestPartitionValue(t *testing.T) {
	d, _ := types.ParseDate("2026-11-30")
	ts, _ := types.ParseTimestamp("2026-11-30T04:00:00Z")
	cases := []struct {
		val     string
		typ     arrow.DataType
		want    any
		wantErr bool
	}{
		{"2026", types.Int, int32(2026), false},
		{"2026", types.BigInt, int64(2026), false},
		{"x", types.Int, nil, true},
		{"1.5", types.Double, 1.5, false},
		{"true", types.Boolean, true, false},
		{"2026-11-30", types.Date, d, false},
		{"2026-11-30 04:00:00", types.Timestamp, ts, false},
		{"abc", types.String, "abc", false},
		{hiveDefaultPartition, types.Int, nil, false},
	}
	for _, c := range cases {
		got, err := partitionValue(partSegment{Name: "c", Value: c.val, Null: c.val == hiveDefaultPartition}, c.typ)
		if (err != nil) != c.wantErr {
			t.Errorf("partitionValue(%q, %s) error = %v", c.val, c.typ, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("partitionValue(%q, %s) = %#v, want %#v", c.val, c.typ, got, c.want)
		}
	}
}

func TestConstArrayAndFormat(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	d, _ := types.ParseDate("2026-11-30")
	cases := []struct {
		typ  arrow.DataType
		v    any
		want string
	}{
		{types.Int, int32(7), "7"},
		{types.BigInt, int64(-3), "-3"},
		{types.String, "a/b", "a%2Fb"},
		{types.Date, d, "2026-11-30"},
		{types.Boolean, true, "true"},
		{types.Int, nil, hiveDefaultPartition},
	}
	for _, c := range cases {
		arr, err := constArray(mem, c.typ, c.v, 3)
		if err != nil {
			t.Fatal(err)
		}
		if arr.Len() != 3 {
			t.Errorf("len = %d", arr.Len())
		}
		for i := range 3 {
			if got := formatPartitionValue(arr, i); got != c.want {
				t.Errorf("formatPartitionValue(%s %v) = %q, want %q", c.typ, c.v, got, c.want)
			}
		}
		arr.Release()
	}
}
