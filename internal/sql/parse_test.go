package sql

import (
	"fmt"
	"strings"
	"testing"
)

// roundTrips lists statements with their canonical form ("" means the
// input is already canonical). Each canonical form must parse back to
// itself.
var roundTrips = []struct {
	in, want string
}{
	// SELECT basics
	{"SELECT 1 + 1", ""},
	{"select 1+1", "SELECT 1 + 1"},
	{"SELECT a, b AS c, t.* FROM t", ""},
	{"SELECT * FROM t", ""},
	{"SELECT a b FROM t x", "SELECT a AS b FROM t AS x"},
	{"SELECT DISTINCT a FROM t", ""},
	{"SELECT percentile_cont(0.25) within group (order by x desc) FROM t", "SELECT percentile_cont(0.25) WITHIN GROUP (ORDER BY x DESC) FROM t"},
	{"SELECT mode() WITHIN GROUP (ORDER BY x) FILTER (WHERE x > 1) FROM t", ""},
	{"SELECT posexplode(a) AS (p, `v w`) FROM t", ""},
	{"SELECT array_sort(a, (left, right) -> left - right) FROM t", "SELECT array_sort(a, (`left`, `right`) -> `left` - `right`) FROM t"},
	{"SELECT ALL a FROM t", "SELECT a FROM t"},
	{"SELECT s.t.* FROM s", ""},
	{"SELECT `@timestamp`, `Mixed Case` FROM `my table`", "SELECT `@timestamp`, `Mixed Case` FROM `my table`"},
	// "..." is a string literal, as in Spark.
	{"SELECT \"404\", \"a\\\"b\" FROM t", "SELECT '404', 'a\"b' FROM t"},
	{"SELECT `a``b` FROM t", ""},
	{"SELECT `select` FROM `from`", ""},
	{"SELECT date, timestamp, interval, stream, table FROM t", ""},
	{"SELECT a FROM t WHERE a > 1 GROUP BY a, 2 HAVING count(*) > 1", ""},
	{"SELECT a FROM t ORDER BY a, b DESC, c ASC NULLS FIRST, d DESC NULLS LAST LIMIT 10 OFFSET 5",
		"SELECT a FROM t ORDER BY a, b DESC, c NULLS FIRST, d DESC NULLS LAST LIMIT 10 OFFSET 5"},
	{"WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT * FROM b", ""},
	{"SELECT 1 UNION ALL SELECT 2 UNION SELECT 3", ""},
	{"SELECT 1 UNION DISTINCT SELECT 2", "SELECT 1 UNION SELECT 2"},
	{"(SELECT 1) UNION ALL (SELECT 2 ORDER BY 1 LIMIT 1) ORDER BY 1", ""},
	{"SELECT 1 UNION ALL (SELECT 2 UNION ALL SELECT 3)", ""},
	{"VALUES (1, 'a'), (2, 'b')", ""},
	{"SELECT * FROM (VALUES (1), (2)) AS v", ""},
	// window functions
	{"SELECT row_number() OVER (PARTITION BY a ORDER BY b DESC) AS rn FROM t", ""},
	{"SELECT sum(x) over (order by t rows between 2 preceding and current row) FROM t",
		"SELECT sum(x) OVER (ORDER BY t ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t"},
	{"SELECT sum(x) OVER (ORDER BY t ROWS 2 PRECEDING) FROM t",
		"SELECT sum(x) OVER (ORDER BY t ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t"},
	{"SELECT avg(x) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1 hour' PRECEDING AND UNBOUNDED FOLLOWING) FROM t", ""},
	{"SELECT count(*) OVER () FROM t", ""},
	{"SELECT lag(x, 1, 0) IGNORE NULLS OVER w, rank() OVER w FROM t WINDOW w AS (PARTITION BY k ORDER BY x)", ""},
	{"SELECT first_value(x IGNORE NULLS) OVER (w ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM t WINDOW w AS (ORDER BY x)",
		"SELECT first_value(x) IGNORE NULLS OVER (w ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM t WINDOW w AS (ORDER BY x)"},
	{"SELECT a FROM t QUALIFY row_number() OVER (PARTITION BY a ORDER BY b) = 1", ""},
	{"SELECT a FROM t WINDOW w AS (ORDER BY a) QUALIFY rank() OVER w = 1",
		"SELECT a FROM t QUALIFY rank() OVER w = 1 WINDOW w AS (ORDER BY a)"},
	{"SELECT window, qualify FROM t window", "SELECT window, qualify FROM t AS window"},
	// FROM and joins
	{"SELECT * FROM a JOIN b ON a.id = b.id", "SELECT * FROM a INNER JOIN b ON a.id = b.id"},
	{"SELECT * FROM a INNER JOIN b USING (id, k)", ""},
	{"SELECT * FROM a LEFT OUTER JOIN b ON a.x = b.x RIGHT JOIN c ON c.y = b.y FULL OUTER JOIN d ON TRUE",
		"SELECT * FROM a LEFT JOIN b ON a.x = b.x RIGHT JOIN c ON c.y = b.y FULL JOIN d ON TRUE"},
	{"SELECT * FROM a CROSS JOIN b", ""},
	{"SELECT * FROM a, b, c", "SELECT * FROM a CROSS JOIN b CROSS JOIN c"},
	{"SELECT * FROM a, b JOIN c ON b.x = c.x", "SELECT * FROM a CROSS JOIN (b INNER JOIN c ON b.x = c.x)"},
	{"SELECT * FROM (a JOIN b ON TRUE)", "SELECT * FROM a INNER JOIN b ON TRUE"},
	{"SELECT * FROM (SELECT a FROM t) s", "SELECT * FROM (SELECT a FROM t) AS s"},
	{"SELECT * FROM (SELECT a FROM t)", ""},
	{"SELECT * FROM ((SELECT 1) UNION ALL (SELECT 2)) u", "SELECT * FROM ((SELECT 1) UNION ALL (SELECT 2)) AS u"},
	{"SELECT * FROM ((SELECT 1) AS x CROSS JOIN y)", "SELECT * FROM (SELECT 1) AS x CROSS JOIN y"},
	{"SELECT * FROM a, ((SELECT 1) AS x CROSS JOIN y)", "SELECT * FROM a CROSS JOIN ((SELECT 1) AS x CROSS JOIN y)"},
	{"SELECT * FROM a JOIN b", "SELECT * FROM a INNER JOIN b"},
	// expressions
	{"SELECT 1, 1.5, .5, 1e3, 1.5E-3, 'it''s', 'a\\nb\\tc\\\\d\\'e', '\\u00e9', TRUE, false, NULL",
		"SELECT 1, 1.5, .5, 1e3, 1.5E-3, 'its', 'a\\nb\\tc\\\\d\\'e', 'é', TRUE, FALSE, NULL"},
	// Spark's escapes: an unknown one is the character (\d is d), \% and
	// \_ keep their backslash for LIKE, R'...' has none.
	{"SELECT '\\d+', '100\\%', r'\\d+', R\"a'b\", 'x' \"y\"", "SELECT 'd+', '100\\\\%', '\\\\d+', 'a\\'b', 'xy'"},
	{"SELECT DATE '2026-01-01', TIMESTAMP '2026-01-01 00:00:00'", ""},
	{"SELECT INTERVAL 5 MINUTES, INTERVAL '5' MINUTE, INTERVAL '5 minutes', INTERVAL 1 HOUR 30 MINUTES",
		"SELECT INTERVAL '5 MINUTES', INTERVAL '5 MINUTE', INTERVAL '5 minutes', INTERVAL '1 HOUR 30 MINUTES'"},
	{"SELECT a, t.a, geo.city, t.geo.city, tags[1], m['k'], tags[1].name, f(x).y", ""},
	{"SELECT (a).b, (1).x, (a + b).c", ""},
	{"SELECT f(), count(*), count(DISTINCT x), count(ALL x), coalesce(a, b, 1)", "SELECT f(), count(*), count(DISTINCT x), count(x), coalesce(a, b, 1)"},
	{"SELECT left(s, 3), right(s, 2), `cast`(x), date(ts)", "SELECT `left`(s, 3), `right`(s, 2), `cast`(x), date(ts)"},
	{"SELECT -a, +a, - -a, -(-1), NOT a, NOT NOT a", "SELECT -a, +a, - -a, - -1, NOT a, NOT NOT a"},
	{"SELECT 1 + 2 * 3, (1 + 2) * 3, 1 - (2 - 3), 1 - 2 - 3, a / b % c", ""},
	{"SELECT a || b || c, a || (b + 1), (a || b) + 1", "SELECT a || b || c, a || b + 1, (a || b) + 1"},
	{"SELECT a = 1 AND b <> 2 OR c != 3 AND d == 4", "SELECT a = 1 AND b <> 2 OR c <> 3 AND d = 4"},
	{"SELECT (a OR b) AND c, a OR b AND c, NOT (a AND b), NOT a AND b", ""},
	{"SELECT a < b, a <= b, a > b, a >= b", ""},
	{"SELECT a IS NULL, a IS NOT NULL, a IS TRUE, a IS NOT FALSE", ""},
	{"SELECT a IN (1, 2), a NOT IN ('x'), a BETWEEN 1 AND 2, a NOT BETWEEN b + 1 AND c * 2", ""},
	{"SELECT a LIKE 'x%', a NOT LIKE 'y', a ILIKE 'z' ESCAPE '!', a RLIKE '^a', a REGEXP 'b', a NOT RLIKE 'c'",
		"SELECT a LIKE 'x%', a NOT LIKE 'y', a ILIKE 'z' ESCAPE '!', a RLIKE '^a', a RLIKE 'b', a NOT RLIKE 'c'"},
	{"SELECT a BETWEEN 1 AND 2 AND b", ""},
	{"SELECT CASE WHEN a > 1 THEN 'x' WHEN a > 0 THEN 'y' ELSE 'z' END, CASE a WHEN 1 THEN 2 END", ""},
	{"SELECT CAST(a AS BIGINT), TRY_CAST(b AS DECIMAL(10,2)), a::string, CAST(x AS STRUCT<a: INT, b: ARRAY<STRING>>)",
		"SELECT CAST(a AS BIGINT), TRY_CAST(b AS DECIMAL(10,2)), CAST(a AS STRING), CAST(x AS STRUCT<a: INT, b: ARRAY<STRING>>)"},
	{"SELECT EXTRACT(year FROM ts), extract(HOUR FROM ts)", "SELECT EXTRACT(YEAR FROM ts), EXTRACT(HOUR FROM ts)"},
	{"SELECT ((((1))))", "SELECT 1"},
	{"SELECT a = NOT b", "SELECT a = (NOT b)"},
	{"SELECT -a[1], -a::int, (-a)[1]", "SELECT -a[1], -CAST(a AS INT), (-a)[1]"},
	{"SELECT TUMBLE(`@timestamp`, '5 minutes') AS w, count(*) AS n FROM logs GROUP BY TUMBLE(`@timestamp`, '5 minutes')", ""},
	{"SELECT a /* inline */ FROM t -- trailing", "SELECT a FROM t"},
	// CREATE TABLE
	{"CREATE TABLE http_logs (`@timestamp` TIMESTAMP, clientip STRING, status INT, size BIGINT, " +
		"geo STRUCT<country: STRING, city: STRING>, tags ARRAY<STRING>, WATERMARK FOR `@timestamp` AS `@timestamp` - INTERVAL 1 MINUTE) " +
		"USING json LOCATION 's3://logs/http/' OPTIONS (compression 'gzip', endpoint 'http://127.0.0.1:9000')",
		"CREATE TABLE http_logs (`@timestamp` TIMESTAMP, clientip STRING, status INT, size BIGINT, " +
			"geo STRUCT<country: STRING, city: STRING>, tags ARRAY<STRING>, WATERMARK FOR `@timestamp` AS `@timestamp` - INTERVAL '1 MINUTE') " +
			"USING json LOCATION 's3://logs/http/' OPTIONS (compression = 'gzip', endpoint = 'http://127.0.0.1:9000')"},
	{"CREATE TABLE IF NOT EXISTS t (a INT NOT NULL COMMENT 'the a', b MAP<STRING, DOUBLE>) COMMENT 'tbl' PARTITIONED BY (a) USING parquet",
		"CREATE TABLE IF NOT EXISTS t (a INT NOT NULL COMMENT 'the a', b MAP<STRING, DOUBLE>) USING parquet PARTITIONED BY (a) COMMENT 'tbl'"},
	{"CREATE TABLE errors USING opensearch OPTIONS (index 'errors', `a.b` = 'v', c.d 1, e true, f json, g -2.5, h INTERVAL 5 SECONDS)",
		"CREATE TABLE errors USING opensearch OPTIONS (index = 'errors', a.b = 'v', c.d = 1, e = TRUE, f = json, g = -2.5, h = INTERVAL '5 SECONDS')"},
	{"CREATE TABLE hot USING index", ""},
	{"CREATE TABLE t2 USING json AS SELECT * FROM t", ""},
	{"CREATE TABLE t (a TINYINT, b SMALLINT, c INTEGER, d LONG, e FLOAT, f REAL, g NUMERIC, h VARCHAR(10), i TEXT, j CHAR(1), k BOOL, l DATE, m INTERVAL, n DECIMAL(5))",
		"CREATE TABLE t (a INT, b INT, c INT, d BIGINT, e DOUBLE, f DOUBLE, g DECIMAL(10,0), h STRING, i STRING, j STRING, k BOOLEAN, l DATE, m INTERVAL, n DECIMAL(5,0))"},
	{"CREATE TABLE t (s STRUCT<a INT, `b c`: ARRAY<MAP<STRING, STRUCT<>>>>)", "CREATE TABLE t (s STRUCT<a: INT, `b c`: ARRAY<MAP<STRING, STRUCT<>>>>)"},
	{"CREATE TABLE t (watermark INT, WATERMARK FOR watermark AS watermark)", ""},
	// other statements
	{"DROP TABLE t", ""},
	{"DROP TABLE IF EXISTS t", ""},
	{"SHOW TABLES", ""},
	{"DESCRIBE t", "DESCRIBE TABLE t"},
	{"DESC TABLE t", "DESCRIBE TABLE t"},
	{"DESCRIBE stream", "DESCRIBE TABLE stream"},
	{"SHOW CREATE TABLE t", ""},
	{"INSERT INTO errors SELECT * FROM http_logs WHERE status >= 500", ""},
	{"INSERT INTO TABLE t (a, b) VALUES (1, 'x'), (2, 'y')", "INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y')"},
	{"INSERT INTO t (SELECT 1)", "INSERT INTO t (SELECT 1)"},
	{"INSERT OVERWRITE t SELECT 1", "INSERT OVERWRITE TABLE t SELECT 1"},
	{"INSERT OVERWRITE TABLE t (a) SELECT 1", ""},
	{"INSERT OVERWRITE TABLE t PARTITION (k = 'a', m) (a) SELECT 1, 'x'", ""},
	{"insert overwrite p partition (y=-1, `m`='jan') values (1)", "INSERT OVERWRITE TABLE p PARTITION (y = -1, m = 'jan') VALUES (1)"},
	{"INSERT INTO p PARTITION (k = 'a') (SELECT 1)", ""},
	{"INSERT STREAM INTO errors SELECT * FROM http_logs WHERE status >= 500 WITH (name = 'errors_feed', trigger = '10 seconds')", ""},
	{"INSERT STREAM INTO errors SELECT * FROM http_logs", ""},
	{"CREATE MATERIALIZED VIEW errors_5m AS SELECT TUMBLE(`@timestamp`, '5 minutes') AS w, clientip, count(*) AS n " +
		"FROM http_logs WHERE status >= 500 GROUP BY TUMBLE(`@timestamp`, '5 minutes'), clientip " +
		"WITH (auto_refresh = true, refresh_interval = '30 seconds', watermark_delay = '1 minute')",
		"CREATE MATERIALIZED VIEW errors_5m AS SELECT TUMBLE(`@timestamp`, '5 minutes') AS w, clientip, count(*) AS n " +
			"FROM http_logs WHERE status >= 500 GROUP BY TUMBLE(`@timestamp`, '5 minutes'), clientip " +
			"WITH (auto_refresh = TRUE, refresh_interval = '30 seconds', watermark_delay = '1 minute')"},
	{"CREATE MATERIALIZED VIEW IF NOT EXISTS v AS SELECT 1", ""},
	{"REFRESH MATERIALIZED VIEW v", ""},
	{"DROP MATERIALIZED VIEW IF EXISTS v", ""},
	{"ALTER MATERIALIZED VIEW v WITH (auto_refresh = false)", "ALTER MATERIALIZED VIEW v WITH (auto_refresh = FALSE)"},
	{"ALTER VIEW db.v RENAME TO db.w", "ALTER VIEW db.v RENAME TO db.w"},
	{"alter view v as select a from t", "ALTER VIEW v AS SELECT a FROM t"},
	{"SHOW MATERIALIZED VIEWS", ""},
	{"DESCRIBE MATERIALIZED VIEW v", ""},
	{"SHOW STREAMS", ""},
	{"DESCRIBE STREAM s", ""},
	{"STOP STREAM s", ""},
	{"START STREAM s", ""},
	{"EXPLAIN SELECT 1", ""},
	{"EXPLAIN ANALYZE SELECT a FROM t", ""},
	{"EXPLAIN VERBOSE INSERT INTO t SELECT 1", ""},
	{"SET s3.endpoint = 'http://127.0.0.1:9000'", ""},
	{"SET batch_size 1024", "SET batch_size = 1024"},
	{"SET `a b` = x", ""},
	{"SET spark.sql.shuffle.partitions", ""},
	{"RESET s3.endpoint", ""},
	{"RESET", ""},
	{"SHOW SETTINGS", ""},
	{"SELECT a <=> b, a<=>NULL = TRUE", "SELECT a <=> b, a <=> NULL = TRUE"},
	{"SELECT a IS NOT DISTINCT FROM b + 1, a IS DISTINCT FROM b", "SELECT a <=> b + 1, NOT a <=> b"},
	{"SELECT rlike(s, 'x'), like(s, 'a%'), s RLIKE 'x'", ""},
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range roundTrips {
		want := tc.want
		if want == "" {
			want = tc.in
		}
		s, err := ParseOne(tc.in)
		if err != nil {
			t.Errorf("ParseOne(%q): %v", tc.in, err)
			continue
		}
		if got := s.String(); got != want {
			t.Errorf("ParseOne(%q).String()\n got %s\nwant %s", tc.in, got, want)
			continue
		}
		again, err := ParseOne(want)
		if err != nil {
			t.Errorf("re-parsing %q: %v", want, err)
			continue
		}
		if got := again.String(); got != want {
			t.Errorf("canonical form is not stable:\n  %s\n  %s", want, got)
		}
		if s.Text() != strings.TrimSpace(strings.TrimSuffix(tc.in, "-- trailing")) {
			t.Errorf("Text() = %q, want the input %q", s.Text(), tc.in)
		}
	}
}

// TestStatementTypes checks which node each statement form produces.
func TestStatementTypes(t *testing.T) {
	tests := []struct{ in, typ string }{
		{"SELECT 1", "*sql.SelectStmt"},
		{"(SELECT 1)", "*sql.SelectStmt"},
		{"VALUES (1)", "*sql.SelectStmt"},
		{"WITH a AS (SELECT 1) SELECT * FROM a", "*sql.SelectStmt"},
		{"CREATE TABLE t USING json", "*sql.CreateTable"},
		{"DROP TABLE t", "*sql.DropTable"},
		{"SHOW TABLES", "*sql.ShowTables"},
		{"DESC t", "*sql.DescribeTable"},
		{"SHOW CREATE TABLE t", "*sql.ShowCreateTable"},
		{"INSERT INTO t VALUES (1)", "*sql.Insert"},
		{"INSERT OVERWRITE t SELECT 1", "*sql.Insert"},
		{"INSERT STREAM INTO t SELECT 1", "*sql.InsertStream"},
		{"CREATE MATERIALIZED VIEW v AS SELECT 1", "*sql.CreateMaterializedView"},
		{"REFRESH MATERIALIZED VIEW v", "*sql.RefreshMaterializedView"},
		{"DROP MATERIALIZED VIEW v", "*sql.DropMaterializedView"},
		{"ALTER MATERIALIZED VIEW v WITH (a = 1)", "*sql.AlterMaterializedView"},
		{"SHOW MATERIALIZED VIEWS", "*sql.ShowMaterializedViews"},
		{"DESCRIBE MATERIALIZED VIEW v", "*sql.DescribeMaterializedView"},
		{"SHOW STREAMS", "*sql.ShowStreams"},
		{"DESCRIBE STREAM s", "*sql.DescribeStream"},
		{"STOP STREAM s", "*sql.StopStream"},
		{"START STREAM s", "*sql.StartStream"},
		{"EXPLAIN SELECT 1", "*sql.Explain"},
		{"SET a = 1", "*sql.Set"},
		{"RESET a", "*sql.Reset"},
		{"SHOW SETTINGS", "*sql.ShowSettings"},
	}
	for _, tc := range tests {
		s, err := ParseOne(tc.in)
		if err != nil {
			t.Errorf("ParseOne(%q): %v", tc.in, err)
			continue
		}
		if got := fmt.Sprintf("%T", s); got != tc.typ {
			t.Errorf("ParseOne(%q) is %s, want %s", tc.in, got, tc.typ)
		}
	}
}
