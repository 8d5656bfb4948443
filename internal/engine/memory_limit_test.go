package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sluice/internal/exec"
)

// TestMemoryLimitSpillsSameResults runs each query with no limit and
// with a tiny one: the results must be the same rows in the same order,
// the tiny run must have spilled, and no spill file may be left.
func TestMemoryLimitSpillsSameResults(t *testing.T) {
	dir := t.TempDir()
	for f := 0; f < 4; f++ {
		var b strings.Builder
		for i := 0; i < 5000; i++ {
			n := f*5000 + i
			fmt.Fprintf(&b, `{"user": "user-%d", "n": %d, "v": %d}`+"\n", (n*7919)%9000, n, n%13)
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.json", f)), []byte(b.String()), 0o644)
	}
	var users strings.Builder
	for i := 0; i < 9000; i += 2 {
		fmt.Fprintf(&users, `{"name": "user-%d", "tier": %d}`+"\n", i, i%5)
	}
	os.WriteFile(filepath.Join(dir, "users.json"), []byte(users.String()), 0o644)
	data := filepath.Join(dir, "data")
	eng, err := Open(Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE ev (user STRING, n BIGINT, v BIGINT) USING json LOCATION '" + dir + "/part-*.json'",
		"CREATE TABLE users (name STRING, tier BIGINT) USING json LOCATION '" + dir + "/users.json'",
	} {
		if _, err := eng.Execute(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		"SELECT user, count(*), sum(v), min(n), max(n) FROM ev GROUP BY user",
		"SELECT user, n FROM ev ORDER BY user DESC, v",
		"SELECT DISTINCT user, v FROM ev",
		"SELECT e.user, e.n, u.tier FROM ev e JOIN users u ON e.user = u.name",
		"SELECT e.user, e.n, u.tier FROM ev e LEFT JOIN users u ON e.user = u.name AND e.v < u.tier",
		"SELECT e.n, u.name FROM ev e RIGHT JOIN users u ON e.n = u.tier",
		"SELECT e.n, u.name, u.tier FROM ev e FULL JOIN users u ON e.user = u.name AND e.v > 3",
		"SELECT u.tier, count(*) FROM ev e LEFT JOIN users u ON e.user = u.name GROUP BY u.tier ORDER BY u.tier",
	} {
		t.Run(q, func(t *testing.T) {
			run := func(limit string) []string {
				if _, err := eng.Execute(ctx, "SET memory_limit = '"+limit+"'"); err != nil {
					t.Fatal(err)
				}
				res, err := eng.Execute(ctx, q)
				if err != nil {
					t.Fatalf("memory_limit %s: %v", limit, err)
				}
				return rowsOf(t, res[0])
			}
			want := run("none")
			before := eng.spills.Load()
			got := run("64KB")
			if eng.spills.Load() == before {
				t.Error("the query did not spill under a 64KB limit")
			}
			if len(want) < 1000 && !strings.Contains(q, "tier, count") {
				t.Fatalf("only %d rows: the test is too small", len(want))
			}
			if strings.Contains(q, " AND ") {
				// With a residual condition, an in-memory join sends a
				// probe batch's unmatched rows after its pairs; spilled, the
				// batches differ, so only the rows are the same.
				sort.Strings(got)
				sort.Strings(want)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("results differ under a memory limit: %d rows vs %d", len(got), len(want))
			}
			entries, _ := os.ReadDir(filepath.Join(data, "tmp"))
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), exec.SpillFilePrefix) {
					t.Errorf("spill file %s left behind", e.Name())
				}
			}
		})
	}
	if _, err := eng.Execute(ctx, "SET memory_limit = 'lots'"); err == nil || !strings.Contains(err.Error(), "256MB") {
		t.Fatalf("bad size: %v", err)
	}
}
