package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sluice/internal/physical"
	"sluice/internal/plan"
	"sluice/internal/sql"
)

// longExpr is a statement with one n-term expression of the given shape
// over t(x BIGINT).
func longExpr(shape string, n int) string {
	var b strings.Builder
	list := func(prefix, sep, suffix string, term func(i int) string) {
		b.WriteString(prefix)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(term(i))
		}
		b.WriteString(suffix)
	}
	switch shape {
	case "or": // x = 0 OR x = 1 OR ...: matches x = 1 and x = 2
		list("SELECT count(*) FROM t WHERE ", " OR ", "", func(i int) string { return "x = " + strconv.Itoa(i) })
	case "and": // x <> 3 AND x <> 4 AND ...: matches both rows
		list("SELECT count(*) FROM t WHERE ", " AND ", "", func(i int) string { return "x <> " + strconv.Itoa(i+3) })
	case "plus": // 1 + 1 + ... + 1 = n
		list("SELECT ", " + ", "", func(int) string { return "1" })
	case "in": // x IN (0, 1, ...): matches both rows
		list("SELECT count(*) FROM t WHERE x IN (", ", ", ")", strconv.Itoa)
	case "having": // HAVING x <> 3 AND x <> 4 AND ...: keeps both groups
		list("SELECT count(*) FROM t GROUP BY x HAVING ", " AND ", "", func(i int) string { return "x <> " + strconv.Itoa(i+3) })
	case "having-plus": // HAVING count(*) + 0 + 0 + ... = 1: keeps both groups
		list("SELECT count(*) FROM t GROUP BY x HAVING count(*)", "", " = 1", func(int) string { return " + 0" })
	default:
		panic(shape)
	}
	return b.String()
}

// longExprEngine opens an engine with t(x BIGINT) holding 1 and 2.
func longExprEngine(tb testing.TB) *Engine {
	tb.Helper()
	dir := tb.TempDir()
	data := filepath.Join(dir, "t.json")
	if err := os.WriteFile(data, []byte("{\"x\": 1}\n{\"x\": 2}\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := eng.Execute(context.Background(), "CREATE TABLE t (x BIGINT) USING json LOCATION '"+data+"'"); err != nil {
		tb.Fatal(err)
	}
	return eng
}

// planOnly parses, binds, optimizes and compiles q without running it.
func planOnly(ctx context.Context, e *Engine, q string) error {
	st, err := sql.ParseOne(q)
	if err != nil {
		return err
	}
	ctx = e.queryContext(ctx)
	n, err := e.planQuery(ctx, st.(*sql.SelectStmt).Query)
	if err != nil {
		return err
	}
	_, err = physical.Compile(n, e.compileOptions(ctx))
	return err
}

// TestLongExpressionsPlanAndRun: 200,000-term expressions plan (and run,
// with the right answer) well within the test timeout; planning used to
// be quadratic and did not finish in minutes.
func TestLongExpressionsPlanAndRun(t *testing.T) {
	if testing.Short() {
		t.Skip("plans 200,000-term statements")
	}
	const n = 200_000
	eng := longExprEngine(t)
	for shape, want := range map[string][]string{"or": {"2"}, "and": {"2"}, "plus": {strconv.Itoa(n)}, "in": {"2"},
		"having": {"1", "1"}, "having-plus": {"1", "1"}} {
		t.Run(shape, func(t *testing.T) {
			n := n
			if strings.HasPrefix(shape, "having") {
				n = 100_000 // the size; keeps the test quick on a loaded machine
			}
			res, err := eng.Execute(context.Background(), longExpr(shape, n))
			if err != nil {
				t.Fatal(err)
			}
			if got := rowsOf(t, res[0]); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("got %v, want %v", got, want)
			}
		})
	}
}

// TestLongExpressionCancelled: a cancelled context stops binding and
// optimizing a huge statement with context.Canceled.
func TestLongExpressionCancelled(t *testing.T) {
	eng := longExprEngine(t)
	st, err := sql.ParseOne(longExpr("or", 200_000))
	if err != nil {
		t.Fatal(err)
	}
	q := st.(*sql.SelectStmt).Query
	done, cancel := context.WithCancel(context.Background())
	cancel()

	if _, err := plan.NewBinder(done, tableResolver{e: eng}).BindQuery(q); !errors.Is(err, context.Canceled) {
		t.Fatalf("binding with a cancelled context: %v, want context.Canceled", err)
	}
	n, err := eng.bindQuery(eng.queryContext(context.Background()), q)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.OptimizeContext(done, n); !errors.Is(err, context.Canceled) {
		t.Fatalf("optimizing with a cancelled context: %v, want context.Canceled", err)
	}
	for _, shape := range []string{"and", "having", "having-plus"} {
		if err := planOnly(done, eng, longExpr(shape, 200_000)); !errors.Is(err, context.Canceled) {
			t.Fatalf("planning %s with a cancelled context: %v, want context.Canceled", shape, err)
		}
	}
}

// TestDeepNestingIsAnError: 100,000 nested parentheses are refused with
// an error, not a blown stack.
func TestDeepNestingIsAnError(t *testing.T) {
	eng := longExprEngine(t)
	q := "SELECT " + strings.Repeat("(", 100_000) + "1" + strings.Repeat(")", 100_000)
	_, err := eng.Execute(context.Background(), q)
	if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Fatalf("got %v, want a nested too deeply error", err)
	}
}

// BenchmarkPlanLongExpression times parse + bind + optimize + compile of
// one n-term expression (see BENCHMARKS.md):
//
//	go test -run XXX -bench PlanLongExpression -benchtime 1x ./internal/engine
func BenchmarkPlanLongExpression(b *testing.B) {
	eng := longExprEngine(b)
	for _, shape := range []string{"or", "and", "plus", "in", "having", "having-plus"} {
		for _, n := range []int{10_000, 40_000, 100_000, 200_000} {
			q := longExpr(shape, n)
			b.Run(shape+"/"+strconv.Itoa(n/1000)+"k", func(b *testing.B) {
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					if err := planOnly(context.Background(), eng, q); err != nil {
						b.Fatal(err)
					}
				}
				// Process CPU time (GC included) does not depend on how
				// loaded a shared machine is, unlike ns/op.
				b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			})
		}
	}
}
