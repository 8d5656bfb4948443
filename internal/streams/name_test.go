package streams

import (
	"testing"

	"sluice/internal/sql"
)

func TestName(t *testing.T) {
	opt := func(k, v string) *sql.Option { return &sql.Option{Key: k, Value: &sql.Literal{Value: v}} }
	for _, c := range []struct {
		table string
		with  sql.Options
		want  string
	}{
		{"default.Logs", nil, "default.logs_stream"},
		{"logs", sql.Options{opt("NAME", "Ingest")}, "Ingest"},
		{"logs", sql.Options{opt("name", "")}, "logs_stream"},
		{"logs", sql.Options{opt("name", "a"), opt("name", "b")}, "b"},
	} {
		if got := Name(c.table, c.with); got != c.want {
			t.Errorf("Name(%s, %v) = %q, want %q", c.table, c.with, got, c.want)
		}
	}
}
