CREATE TABLE src (s STRING, n INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE) USING json LOCATION '/tmp/qfix/in/' COMMENT 'Bob''s table';
CREATE TABLE feed_out (s STRING, n INT) USING json LOCATION '/tmp/qfix/feed_out/';
CREATE VIEW quoted AS SELECT n, s = 'it''s' AS is_q, s LIKE '100\%' AS pct, regexp_extract(s, '\d+', 0) AS digits, concat(s, 'x''y', '\\') AS lit FROM src;
INSERT STREAM INTO feed_out SELECT s, n FROM src WHERE s <> 'it''s' AND s NOT LIKE '%\%' WITH (name = 'feed', trigger = 'available_now');
CREATE MATERIALIZED VIEW quoted_mv AS SELECT s, count(*) AS c FROM src WHERE s IN ('it''s', 'a\\d7', '1000') GROUP BY s;
REFRESH MATERIALIZED VIEW quoted_mv;
SELECT * FROM quoted ORDER BY n;
SELECT * FROM quoted_mv ORDER BY s;
SELECT * FROM feed_out ORDER BY n;
