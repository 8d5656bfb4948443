package flint

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestSparkTypeName(t *testing.T) {
	for in, want := range map[string]string{"INT": "integer", "BIGINT": "long", "SMALLINT": "short", "TINYINT": "byte",
		"STRING": "string", "TIMESTAMP": "timestamp", "double": "double"} {
		if got := sparkTypeName(in); got != want {
			t.Errorf("sparkTypeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFieldFold(t *testing.T) {
	s := arrow.NewSchema([]arrow.Field{{Name: "Host", Type: arrow.BinaryTypes.String}, {Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	if fieldFold(s, "host") != 0 || fieldFold(s, "N") != 1 || fieldFold(s, "x") != -1 {
		t.Errorf("fieldFold: %d %d %d", fieldFold(s, "host"), fieldFold(s, "N"), fieldFold(s, "x"))
	}
}
