package runner

import (
	"fmt"
	"strings"
)

// Query is one timed statement; {t} in SQL is replaced by the table name.
type Query struct {
	ID   string
	Name string
	SQL  string
}

// Queries are the benchmark's statements, each scanning the whole table.
var Queries = []Query{
	{"Q1", "scan-filter-count", "SELECT count(*) FROM {t} WHERE status >= 500"},
	{"Q2", "group-by-status", "SELECT status, count(*), avg(bytes) FROM {t} GROUP BY status"},
	{"Q3", "group-by-hour-and-path", "SELECT date_trunc('hour', `@timestamp`) AS h, path, count(*), " +
		"avg(latency_ms), approx_percentile(latency_ms, 0.99) FROM {t} GROUP BY 1, 2"},
	{"Q4", "top-n", "SELECT clientip, sum(bytes) AS b FROM {t} GROUP BY clientip ORDER BY b DESC LIMIT 10"},
}

// Baseline is run only when asked for (--query Q0): a scan and filter
// that selects nothing (and that Parquet statistics cannot prune), so
// the time is the decoder's and the filter's
// alone, with no aggregation; it is the bound Q1-Q4 approach.
var Baseline = Query{"Q0", "scan-filter-baseline", "SELECT status FROM {t} WHERE status % 1000 >= 600"}

// Correlated is run only when asked for (--query Q5): a correlated scalar
// subquery, which the planner turns into a left join of the table with
// itself grouped by path, so the table is read twice.
var Correlated = Query{"Q5", "correlated-subquery", "SELECT count(*) FROM {t} l WHERE latency_ms > " +
	"(SELECT avg(latency_ms) FROM {t} i WHERE i.path = l.path)"}

// Windowed is run only when asked for (--query W1): row_number over every
// row, partitioned by client and ordered by time and path, so the cost is
// the window operator's sort of all rows and its per-partition ranking.
var Windowed = Query{"W1", "window-row-number", "SELECT count(*), sum(rn) FROM (SELECT row_number() OVER " +
	"(PARTITION BY clientip ORDER BY `@timestamp`, path) AS rn FROM {t}) x WHERE rn <= 3"}

// Text returns the query's SQL over table t.
func (q Query) Text(t string) string { return strings.ReplaceAll(q.SQL, "{t}", t) }

// selectQueries picks queries by ID (case-insensitive); none means all.
func selectQueries(ids []string) ([]Query, error) {
	if len(ids) == 0 {
		return Queries, nil
	}
	var out []Query
	for _, id := range ids {
		found := false
		for _, q := range append([]Query{Baseline, Correlated, Windowed}, Queries...) {
			if strings.EqualFold(q.ID, id) {
				out = append(out, q)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown query %q (known: Q0, Q1, Q2, Q3, Q4, Q5, W1)", id)
		}
	}
	return out, nil
}
