-- Sluice quickstart. From the repository root:
--
--   go run ./cmd/sluice sql -f examples/quickstart.sql
--
-- Reads the sample access logs shipped in testdata/sample/http_logs/ (three
-- NDJSON files in Hive partition folders date=2026-11-28/ ..., two of them
-- gzip-compressed), aggregates them, and writes a Parquet table into
-- ./sluice-data/quickstart/ (the default data dir, which also holds the
-- catalog; LOCATION paths are relative to the working directory).

-- 1. A table over a folder. No column list: the schema is inferred from a
--    sample, and the partition folders add a `date` column. The catalog
--    lives in the data dir, so later `sluice sql` runs see this table.
DROP TABLE IF EXISTS http_logs;
CREATE TABLE http_logs USING json LOCATION 'testdata/sample/http_logs/';

DESCRIBE http_logs;

-- 2. Batch queries over every file.
SELECT status, count(*) AS requests
FROM http_logs
GROUP BY status
ORDER BY status;

SELECT date, count(*) AS requests, sum(size) AS bytes, max(latency_ms) AS slowest_ms
FROM http_logs
GROUP BY date
ORDER BY date;

SELECT geo.country AS country, count(*) AS server_errors
FROM http_logs
WHERE status >= 500
GROUP BY geo.country
ORDER BY server_errors DESC, country
LIMIT 5;

-- 3. JSON in, Parquet out: daily status counts written with INSERT INTO a
--    Parquet table, then read back. Without a LOCATION the table is
--    managed: its files go in the data dir (tables/status_by_day/), and
--    DROP TABLE removes them, so every run starts afresh.
DROP TABLE IF EXISTS status_by_day;
CREATE TABLE status_by_day (date DATE, status INT, requests BIGINT)
  USING parquet;

INSERT INTO status_by_day
SELECT date, status, count(*)
FROM http_logs
GROUP BY date, status;

SELECT date, sum(requests) AS errors
FROM status_by_day
WHERE status >= 400
GROUP BY date
ORDER BY date;

-- 4. The embedded local index (Bleve, stored in the data dir) is the default
--    sink. Document ids come from the id columns, so writing the same rows
--    again (a second run, or the stream below) upserts the same 78
--    documents instead of adding copies. match() is pushed down to the
--    index as a full-text query (see EXPLAIN).
CREATE TABLE IF NOT EXISTS errors (`@timestamp` TIMESTAMP, clientip STRING, request STRING, status BIGINT)
  USING index OPTIONS (text_fields 'request', id '@timestamp,clientip,request');

INSERT INTO errors
SELECT `@timestamp`, clientip, request, status FROM http_logs WHERE status >= 400;

SELECT status, count(*) AS logins_failed
FROM errors
WHERE match(request, 'login')
GROUP BY status
ORDER BY status;

-- 5. The same pipeline as a stream: it picks up only files it has not
--    seen (tracked in a checkpoint under the data dir). 'available_now'
--    processes the backlog in epochs of at most two files and stops; with
--    trigger = '10 seconds' it would keep running until Ctrl-C.
INSERT STREAM INTO errors
SELECT `@timestamp`, clientip, request, status FROM http_logs WHERE status >= 400
WITH (name = 'errors_feed', trigger = 'available_now', max_files_per_trigger = 2);

SHOW STREAMS;

SELECT count(*) AS documents FROM errors;

-- OpenSearch instead of the local index (a node on localhost:9200):
--
--   CREATE TABLE errors_os USING opensearch
--     OPTIONS (endpoint 'http://localhost:9200', index 'errors-{@timestamp|yyyy.MM.dd}',
--              auth 'basic', user 'admin', password '${env:OS_PASSWORD}');
