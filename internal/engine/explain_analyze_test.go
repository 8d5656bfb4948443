package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestExplainAnalyze: EXPLAIN ANALYZE runs the query and prints each
// operator's and scan's rows (compared exactly, as golden text) and time
// (masked: timings vary); a write is refused rather than performed.
func TestExplainAnalyze(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs.json")
	var b strings.Builder
	for i := 0; i < 40; i++ {
		b.WriteString(`{"uid": ` + string(rune('0'+i%4)) + `, "status": ` + []string{"200", "404", "500", "200"}[i%4] + "}\n")
	}
	if err := os.WriteFile(logs, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	eng := newTestEngine(t)
	mustExecAll(t, eng, "CREATE TABLE logs (uid BIGINT, status INT) USING json LOCATION '"+logs+"'")
	res, err := eng.Execute(t.Context(), "EXPLAIN ANALYZE SELECT uid, count(*) AS n FROM logs WHERE status >= 400 GROUP BY uid ORDER BY uid LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(resultRows(res[0]), "\n")
	masked := regexp.MustCompile(`time=[0-9.]+(µs|ms|s)`).ReplaceAllString(got, "time=T")
	masked = regexp.MustCompile(`location=\S+`).ReplaceAllString(masked, "location=L")
	want := strings.Join([]string{
		"== Physical Plan (analyzed) ==",
		"TopN 1 [uid] (rows=1, time=T)",
		"  Project [uid, `count(*)` AS n] (rows=2, time=T)",
		"    HashAggregate keys=[uid] aggs=[count(*)] (rows=2, time=T)",
		"      Filter (status >= 400)",
		"        Scan json location=L files=1 pruned=0 columns=[uid, status] filter=(status >= 400) (rows=40, time=T)",
		"Total: 1 row in T",
	}, "\n")
	masked = regexp.MustCompile(`in [0-9.]+(µs|ms|s)$`).ReplaceAllString(masked, "in T")
	if masked != want {
		t.Errorf("EXPLAIN ANALYZE:\n%s\nwant:\n%s", masked, want)
	}
	if _, err := eng.Execute(t.Context(), "EXPLAIN ANALYZE INSERT INTO logs SELECT * FROM logs"); err == nil ||
		!strings.Contains(err.Error(), "EXPLAIN ANALYZE runs SELECT queries only") {
		t.Errorf("EXPLAIN ANALYZE of a write: %v", err)
	}
	if n := len(queryRows(t, eng, "SELECT * FROM logs")); n != 40 {
		t.Errorf("the refused write changed the table: %d rows", n)
	}
}
