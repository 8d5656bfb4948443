CREATE TABLE src (id BIGINT, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '/tmp/cpfix/in/';
CREATE TABLE feed_out (id BIGINT, status INT) USING json LOCATION '/tmp/cpfix/feed_out/';
CREATE TABLE counts_out (w TIMESTAMP, n BIGINT) USING json LOCATION '/tmp/cpfix/counts_out/';
INSERT STREAM INTO feed_out SELECT id, status FROM src WITH (name = 'feed', trigger = 'available_now');
INSERT STREAM INTO counts_out SELECT TUMBLE(ts, '5 minutes').start AS w, count(*) AS n FROM src GROUP BY TUMBLE(ts, '5 minutes') WITH (name = 'counts', trigger = 'available_now');
