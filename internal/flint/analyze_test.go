package flint

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/skipindex"
)

// TestRecommend: Flint's rules by type, VALUE_SET for a low cardinality
// column, nothing for a type no skip structure takes.
func TestRecommend(t *testing.T) {
	for _, tc := range []struct {
		f        arrow.Field
		part     bool
		distinct map[string]int64
		kind     string
		why      string
	}{
		{arrow.Field{Name: "day", Type: arrow.BinaryTypes.String}, true, nil, skipindex.Partition, "partition columns"},
		{arrow.Field{Name: "ok", Type: arrow.FixedWidthTypes.Boolean}, false, nil, skipindex.ValueSet, "BooleanType columns"},
		{arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int64}, false, nil, skipindex.MinMax, "LongType columns"},
		{arrow.Field{Name: "host", Type: arrow.BinaryTypes.String}, false, nil, skipindex.BloomFilter, "StringType columns"},
		{arrow.Field{Name: "host", Type: arrow.BinaryTypes.String}, false, map[string]int64{"host": 3}, skipindex.ValueSet, "low cardinality columns (about 3 distinct values)"},
		{arrow.Field{Name: "b", Type: arrow.BinaryTypes.Binary}, false, nil, "", ""},
	} {
		kind, why := recommend(tc.f, tc.part, tc.distinct)
		if kind != tc.kind || !strings.HasSuffix(why, tc.why) {
			t.Errorf("%s: %q %q, want %q ...%q", tc.f.Name, kind, why, tc.kind, tc.why)
		}
	}
}
