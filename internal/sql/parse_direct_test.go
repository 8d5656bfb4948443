package sql

import "testing"

// TestDirectFileQuery: json.`path` in FROM is a direct file query, while
// a plain json.t stays a qualified table name.
func TestDirectFileQuery(t *testing.T) {
	cases := []struct {
		in, format, name, out string
	}{
		{"SELECT * FROM json.`s3://b/logs/` AS l", "json", "s3://b/logs/", "SELECT * FROM json.`s3://b/logs/` AS l"},
		{"SELECT * FROM PARQUET.`/data/x.parquet`", "parquet", "/data/x.parquet", "SELECT * FROM parquet.`/data/x.parquet`"},
		{"SELECT * FROM json.events", "", "json.events", "SELECT * FROM json.events"},
		{"SELECT * FROM json.`events`", "", "json.events", "SELECT * FROM json.events"},
	}
	for _, c := range cases {
		s, err := ParseOne(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		tn := s.(*SelectStmt).Query.Body.(*Select).From.(*TableName)
		if tn.Format != c.format || tn.Name != c.name {
			t.Errorf("%s: format %q name %q", c.in, tn.Format, tn.Name)
		}
		if got := s.String(); got != c.out {
			t.Errorf("%s: prints %s", c.in, got)
		}
	}
}
