package opensearch_test

import (
	"context"
	"fmt"
	"testing"

	"sluice/internal/engine"
	"sluice/internal/types"
)

// TestBatchInsertVisible: with no refresh option, a batch INSERT into an
// opensearch table is searchable by the very next statement (the sink
// refreshes the indexes it wrote before the INSERT returns), each time.
func TestBatchInsertVisible(t *testing.T) {
	n := needNode(t)
	eng, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	count := func() string {
		t.Helper()
		res, err := eng.Execute(ctx, "SELECT count(*) FROM os_fresh")
		if err != nil {
			t.Fatal(err)
		}
		return types.FormatValue(res[0].Batches[0].Column(0), 0)
	}
	if _, err := eng.Execute(ctx, fmt.Sprintf(`CREATE TABLE os_fresh (id INT, s STRING) USING opensearch
		OPTIONS (endpoint '%s', index 'batch-refresh', index_settings '{"refresh_interval": "-1", "number_of_replicas": 0}')`,
		n.URL)); err != nil {
		t.Fatal(err)
	}
	// refresh_interval -1: only an explicit refresh makes documents
	// searchable, so a missing one fails here rather than by timing.
	for i, want := range []string{"3", "6"} {
		if _, err := eng.Execute(ctx, "INSERT INTO os_fresh VALUES (0, 'x'), (1, 'x'), (2, 'x')"); err != nil {
			t.Fatal(err)
		}
		if got := count(); got != want {
			t.Errorf("after INSERT %d: count = %s, want %s (not refreshed)", i+1, got, want)
		}
	}
}
