package sql

import "testing"

const benchScript = `CREATE TABLE http_logs (
  ` + "`@timestamp`" + ` TIMESTAMP, clientip STRING, request STRING, status INT, size BIGINT,
  geo STRUCT<country: STRING, city: STRING>, tags ARRAY<STRING>,
  WATERMARK FOR ` + "`@timestamp` AS `@timestamp`" + ` - INTERVAL 1 MINUTE
) USING json LOCATION 's3://logs/http/' OPTIONS (compression 'gzip', endpoint 'http://127.0.0.1:9000');
CREATE MATERIALIZED VIEW errors_5m AS
  SELECT TUMBLE(` + "`@timestamp`" + `, '5 minutes') AS w, clientip, count(*) AS n
  FROM http_logs WHERE status >= 500 AND geo.city IN ('Paris', 'Lyon') GROUP BY TUMBLE(` + "`@timestamp`" + `, '5 minutes'), clientip
  WITH (auto_refresh = true, refresh_interval = '30 seconds', watermark_delay = '1 minute');
SELECT a.x, b.y, CASE WHEN a.z > 10 THEN 'big' ELSE 'small' END AS size FROM a LEFT JOIN b ON a.id = b.id
  WHERE a.ts BETWEEN TIMESTAMP '2026-01-01 00:00:00' AND TIMESTAMP '2026-02-01 00:00:00' ORDER BY 1 DESC LIMIT 100`

func BenchmarkParse(b *testing.B) {
	b.SetBytes(int64(len(benchScript)))
	for i := 0; i < b.N; i++ {
		if _, err := Parse(benchScript); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkString(b *testing.B) {
	stmts, err := Parse(benchScript)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		_ = canonical(stmts)
	}
}
