package streams

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/plan"
)

// TestKeyedSinkSpec: a stream shared by workers in update mode into a
// sink that names documents by epoch gets the GROUP BY key columns (a
// window by its start) as the sink's id, keeps an id the table sets,
// and is refused when the output drops a key; file sinks, one worker
// and append mode are left alone.
func TestKeyedSinkSpec(t *testing.T) {
	update := map[string]string{"output_mode": "update", "workers": "3"}
	cases := []struct {
		query, using, id string
		opts             map[string]string
		want, err        string
	}{
		{"SELECT status, count(*) AS n FROM src GROUP BY status", "index", "", update, "status", ""},
		{"SELECT count(*) AS n, status AS code FROM src GROUP BY status", "opensearch", "", update, "code", ""},
		{"SELECT TUMBLE(ts, '1 minute').start AS w, status, count(*) AS n FROM src GROUP BY TUMBLE(ts, '1 minute'), status", "index", "", update, "w,status", ""},
		{"SELECT status, count(*) AS n FROM src GROUP BY status", "index", "n", update, "n", ""},
		{"SELECT count(*) AS n FROM src GROUP BY status", "index", "", update, "", "does not carry every GROUP BY key"},
		{"SELECT count(*) AS n FROM src", "opensearch", "", update, "", "does not carry every GROUP BY key"},
		{"SELECT status + 1 AS s, count(*) AS n FROM src GROUP BY status", "index", "", update, "", "does not carry every GROUP BY key"},
		{"SELECT count(*) AS n FROM src GROUP BY status", "parquet", "", update, "", ""},
		{"SELECT count(*) AS n FROM src GROUP BY status", "index", "", map[string]string{"output_mode": "update"}, "", ""},
		{"SELECT count(*) AS n FROM src GROUP BY status", "index", "", map[string]string{"workers": "3"}, "", ""},
	}
	for _, c := range cases {
		n := bind(t, c.query)
		n, err := plan.ConformToTable(n, allNullable(n.Schema()), nil, "out")
		if err != nil {
			t.Fatal(err)
		}
		spec := connector.TableSpec{Name: "out", Using: c.using, Options: map[string]string{}}
		if c.id != "" {
			spec.Options["id"] = c.id
		}
		got, err := keyedSinkSpec("s", c.opts, spec, n)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s into %s: error %v, want %q", c.query, c.using, err, c.err)
			}
		case err != nil:
			t.Errorf("%s into %s: %v", c.query, c.using, err)
		case got.Options["id"] != c.want:
			t.Errorf("%s into %s (%v): id %q, want %q", c.query, c.using, c.opts, got.Options["id"], c.want)
		}
	}
}

// allNullable is s with every field nullable, as a view's sink is.
func allNullable(s *arrow.Schema) *arrow.Schema {
	fs := append([]arrow.Field{}, s.Fields()...)
	for i := range fs {
		fs[i].Nullable = true
	}
	return arrow.NewSchema(fs, nil)
}
