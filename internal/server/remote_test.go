package server

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"sluice/internal/cli"
	"sluice/internal/sql"
)

// TestRemoteExecutor: cli.Remote (sluice sql --server) gets rows with
// their Arrow types, messages, and the engine's error text back.
func TestRemoteExecutor(t *testing.T) {
	f := newFixture(t, 2)
	r := &cli.Remote{URL: f.http.URL}
	run := func(q string) (string, error) {
		st, err := sql.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.ExecuteStatement(context.Background(), st)
		if err != nil {
			return "", err
		}
		var b bytes.Buffer
		if err := cli.WriteResult(&b, cli.Table{}, res); err != nil {
			t.Fatal(err)
		}
		return b.String(), nil
	}
	out, err := run("SELECT id, name, CAST(id AS DECIMAL(5,2)) AS d, array(id, id) AS a FROM t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| 0  | n0   | 0.00 | [0,0] |", "(2 rows)"} {
		if !strings.Contains(strings.ReplaceAll(out, "  ", " "), strings.ReplaceAll(want, "  ", " ")) {
			t.Errorf("table output:\n%s\nwant %q", out, want)
		}
	}
	if out, err := run("CREATE TABLE u (x INT) USING json LOCATION '" + f.dir + "/u/'"); err != nil || !strings.Contains(out, "table u created") {
		t.Errorf("message: %q %v", out, err)
	}
	if _, err := run("SELECT nope FROM t"); err == nil || !strings.Contains(err.Error(), `column "nope" not found`) {
		t.Errorf("error: %v", err)
	}
}
