package streams

import (
	"testing"

	"sluice/internal/connector"
)

// TestIDsNameGroups: a sink's id names groups (a NULL key is then a
// value, docid's \N) only when every id column carries a GROUP BY key.
func TestIDsNameGroups(t *testing.T) {
	for _, c := range []struct {
		query, id string
		want      bool
	}{
		{"SELECT status, count(*) AS n FROM src GROUP BY status", "status", true},
		{"SELECT status, host, count(*) AS n FROM src GROUP BY status, host", "`host`, STATUS", true},
		{"SELECT TUMBLE(ts, '1 minute').start AS w, status, count(*) AS n FROM src GROUP BY TUMBLE(ts, '1 minute'), status", "w,status", true},
		{"SELECT status, count(*) AS n FROM src GROUP BY status", "n", false},
		{"SELECT status, count(*) AS n FROM src GROUP BY status", "status,n", false},
		{"SELECT status, count(*) AS n FROM src GROUP BY status", "", false},
		{"SELECT id, status FROM src", "id", false},
	} {
		n := bind(t, c.query)
		spec := connector.TableSpec{Name: "out", Using: "index", Options: map[string]string{"id": c.id}}
		if got := idsNameGroups(spec, n); got != c.want {
			t.Errorf("%s with id %q: %v, want %v", c.query, c.id, got, c.want)
		}
	}
}
