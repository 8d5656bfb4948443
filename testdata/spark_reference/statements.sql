-- One statement a paragraph, each a form from the Spark SQL reference's
-- syntax pages (DDL, DML, data retrieval, auxiliary), grouped by page.
-- gen.py runs them in order in pyspark and writes sample.slt.
-- ${TESTDATA} and ${TMPDIR} are the slt runner's folders.

-- setup: the reference's examples read these tables
CREATE TABLE people (id INT, name STRING, city STRING, score DOUBLE, active BOOLEAN, joined TIMESTAMP, tags ARRAY<STRING>, address STRUCT<street: STRING, zip: STRING>) USING json LOCATION '${TESTDATA}/data/json/people.json'

CREATE TABLE sales (id INT, g STRING, o INT, v INT, d DOUBLE, ts TIMESTAMP) USING json LOCATION '${TESTDATA}/data/json/sales.json'

-- sql-ref-syntax-ddl-create-table-datasource
CREATE TABLE student (id INT, name STRING, age INT) USING parquet LOCATION '${TMPDIR}/student'

CREATE TABLE IF NOT EXISTS student (id INT) USING parquet LOCATION '${TMPDIR}/student'

CREATE TABLE student_csv (id INT, name STRING) USING CSV LOCATION '${TMPDIR}/student_csv' COMMENT 'this is a comment' TBLPROPERTIES ('foo'='bar')

CREATE TABLE student_part (id INT, name STRING, age INT) USING json PARTITIONED BY (age) LOCATION '${TMPDIR}/student_part'

CREATE TABLE student_copy USING parquet LOCATION '${TMPDIR}/student_copy' AS SELECT id, name FROM people WHERE id < 4

-- sql-ref-syntax-ddl-create-table-like
CREATE TABLE student_like LIKE student LOCATION '${TMPDIR}/student_like'

-- sql-ref-syntax-dml-insert-table
INSERT INTO student VALUES (1, 'Amy Smith', 18), (2, 'Bob Brown', 19)

INSERT INTO student SELECT id, name, 20 FROM people WHERE id = 3

INSERT INTO TABLE student (id, name, age) VALUES (4, 'Cathy', 21)

INSERT INTO student_part PARTITION (age = 30) VALUES (5, 'Dan')

INSERT INTO student_part PARTITION (age) VALUES (6, 'Eve', 31)

INSERT OVERWRITE student_copy SELECT id, name FROM people WHERE id > 8

INSERT OVERWRITE TABLE student_part PARTITION (age = 30) VALUES (7, 'Fay')

SELECT * FROM student ORDER BY id

SELECT * FROM student_copy ORDER BY id

SELECT * FROM student_part ORDER BY id

-- sql-ref-syntax-ddl-alter-table
ALTER TABLE student_csv ADD COLUMNS (age INT)

ALTER TABLE student_csv SET TBLPROPERTIES ('k' = 'v')

ALTER TABLE student_csv UNSET TBLPROPERTIES ('k')

ALTER TABLE student_like RENAME TO student_like2

SHOW COLUMNS IN student_csv

SHOW TBLPROPERTIES student_csv ('foo')

-- sql-ref-syntax-ddl-truncate-table
TRUNCATE TABLE student_like2

SELECT count(*) FROM student_like2

-- sql-ref-syntax-ddl-create-view
CREATE VIEW experienced AS SELECT id, name FROM people WHERE score > 80

CREATE OR REPLACE VIEW experienced (vid COMMENT 'id', vname) COMMENT 'good ones' AS SELECT id, name FROM people WHERE score > 85

CREATE TEMPORARY VIEW tv AS SELECT g, sum(v) AS total FROM sales GROUP BY g

SELECT * FROM experienced ORDER BY vid

SELECT * FROM tv ORDER BY g

SHOW VIEWS

DESCRIBE experienced

-- sql-ref-syntax-ddl-alter-view
ALTER VIEW experienced RENAME TO experienced2

ALTER VIEW experienced2 AS SELECT id FROM people WHERE id = 1

SELECT * FROM experienced2

-- sql-ref-syntax-ddl-drop-view, drop-table
DROP VIEW experienced2

DROP VIEW IF EXISTS nope

DROP TABLE IF EXISTS nope

DROP TABLE student_like2

-- sql-ref-syntax-ddl-create-database, use, drop
CREATE DATABASE IF NOT EXISTS customer_db COMMENT 'customers'

USE customer_db

CREATE TABLE c (a INT) USING json LOCATION '${TMPDIR}/cdb_c'

SHOW TABLES

USE default

SHOW TABLES IN customer_db

DROP DATABASE customer_db CASCADE

SHOW DATABASES

-- sql-ref-syntax-qry-select-where
SELECT id, name FROM people WHERE city = 'Paris' OR score > 90 ORDER BY id

SELECT id FROM people WHERE name LIKE 'A%' OR name RLIKE '^C' ORDER BY id

SELECT id FROM people WHERE city IN ('London', 'Tokyo') AND id BETWEEN 1 AND 8 ORDER BY id

SELECT id FROM people WHERE address IS NULL ORDER BY id

SELECT id FROM people WHERE EXISTS (SELECT 1 FROM sales WHERE sales.id = people.id AND v > 30) ORDER BY id

-- sql-ref-syntax-qry-select-groupby
SELECT g, sum(v), count(*), avg(d) FROM sales GROUP BY g ORDER BY g

SELECT g, o, sum(v) FROM sales GROUP BY g, o WITH ROLLUP ORDER BY g, o

SELECT g, o, sum(v) FROM sales GROUP BY ROLLUP (g, o) ORDER BY g, o

SELECT g, o, count(*) FROM sales GROUP BY CUBE (g, o) ORDER BY g, o

SELECT g, o, count(*) FROM sales GROUP BY GROUPING SETS ((g), (o), ()) ORDER BY g, o

SELECT g, grouping(g), count(*) FROM sales GROUP BY g WITH CUBE ORDER BY g

SELECT g, sum(v) FILTER (WHERE o > 1) FROM sales GROUP BY g ORDER BY g

SELECT g, count(DISTINCT o), first(v), last(v) FROM (SELECT * FROM sales ORDER BY id) GROUP BY g ORDER BY g

SELECT g, sum(v) FROM sales GROUP BY 1 ORDER BY 1

SELECT g, o, max(v) FROM sales GROUP BY ALL ORDER BY g, o

-- sql-ref-syntax-qry-select-having
SELECT g, sum(v) FROM sales GROUP BY g HAVING sum(v) > 50 ORDER BY g

SELECT g FROM sales GROUP BY g HAVING max(d) > 3 ORDER BY g

SELECT sum(v) FROM sales HAVING sum(v) > 10

-- sql-ref-syntax-qry-select-orderby
SELECT id, v FROM sales ORDER BY v NULLS LAST, id

SELECT id, v FROM sales ORDER BY v DESC NULLS FIRST, id DESC

SELECT id, v FROM sales ORDER BY ALL

-- sql-ref-syntax-qry-select-sortby, distribute-by, clusterby
SELECT id, v FROM sales SORT BY id

SELECT id FROM sales DISTRIBUTE BY g

SELECT id, g FROM sales CLUSTER BY g

-- sql-ref-syntax-qry-select-limit, offset
SELECT id FROM people ORDER BY id LIMIT 3

SELECT id FROM people ORDER BY id LIMIT ALL

SELECT id FROM people ORDER BY id LIMIT 2 OFFSET 3

SELECT id FROM people ORDER BY id OFFSET 8

-- sql-ref-syntax-qry-select-cte
WITH t AS (SELECT g, v FROM sales) SELECT g, sum(v) FROM t GROUP BY g ORDER BY g

WITH t(x, y) AS (SELECT g, v FROM sales) SELECT x, max(y) FROM t GROUP BY x ORDER BY x

WITH a AS (SELECT 1 AS n), b AS (SELECT n + 1 AS n FROM a) SELECT * FROM a UNION ALL SELECT * FROM b

SELECT * FROM (WITH t AS (SELECT 5 AS x) SELECT x FROM t)

-- sql-ref-syntax-qry-select-hints
SELECT /*+ BROADCAST(s) */ p.id, s.v FROM people p JOIN sales s ON p.id = s.id ORDER BY p.id

SELECT /*+ REPARTITION(3) */ count(*) FROM sales

SELECT /*+ COALESCE(1) */ id FROM people ORDER BY id LIMIT 1

-- sql-ref-syntax-qry-select-inline-table
SELECT * FROM VALUES ('one', 1), ('two', 2) AS data(a, b) ORDER BY b

SELECT * FROM (VALUES 1, 2, 3) t(x) ORDER BY x

VALUES (1, 'a'), (2, 'b')

-- sql-ref-syntax-qry-select-file
SELECT id, name FROM json.`${TESTDATA}/data/json/people.json` WHERE id = 1

-- sql-ref-syntax-qry-select-join
SELECT p.id, s.v FROM people p INNER JOIN sales s ON p.id = s.id ORDER BY p.id

SELECT p.id, s.v FROM people p LEFT JOIN sales s ON p.id = s.id ORDER BY p.id

SELECT p.id, s.v FROM people p RIGHT OUTER JOIN sales s ON p.id = s.id ORDER BY s.id

SELECT p.id, s.id FROM people p FULL OUTER JOIN sales s ON p.id = s.id + 5 ORDER BY p.id, s.id

SELECT count(*) FROM people CROSS JOIN sales

SELECT p.id FROM people p LEFT SEMI JOIN sales s ON p.id = s.id ORDER BY p.id

SELECT p.id FROM people p LEFT ANTI JOIN sales s ON p.id = s.id ORDER BY p.id

SELECT p.id, s.v FROM people p JOIN sales s USING (id) ORDER BY p.id

SELECT id, name, v FROM people NATURAL JOIN sales ORDER BY id

-- sql-ref-syntax-qry-select-setops
SELECT g FROM sales UNION SELECT city FROM people ORDER BY 1

SELECT o FROM sales UNION ALL SELECT id FROM people WHERE id < 3 ORDER BY 1

SELECT o FROM sales INTERSECT SELECT id FROM people ORDER BY 1

SELECT id FROM people EXCEPT SELECT o FROM sales ORDER BY 1

SELECT id FROM people MINUS SELECT o FROM sales ORDER BY 1

SELECT o FROM sales INTERSECT ALL SELECT o FROM sales WHERE g = 'a' ORDER BY 1

SELECT o FROM sales EXCEPT ALL SELECT o FROM sales WHERE g = 'a' ORDER BY 1

-- sql-ref-syntax-qry-select-like
SELECT name FROM people WHERE name LIKE '_e%' ORDER BY name

SELECT name FROM people WHERE name NOT LIKE '%a%' ORDER BY name

SELECT name FROM people WHERE name ILIKE 'a%' ORDER BY name

SELECT name FROM people WHERE name LIKE ANY ('A%', '%n') ORDER BY name

SELECT name FROM people WHERE name LIKE ALL ('%a%', '%d%') ORDER BY name

SELECT name FROM people WHERE name RLIKE 'a$' ORDER BY name

-- sql-ref-syntax-qry-select-case
SELECT id, CASE WHEN id > 5 THEN 'big' WHEN id > 2 THEN 'mid' ELSE 'small' END FROM people ORDER BY id

SELECT id, CASE city WHEN 'Paris' THEN 1 ELSE 0 END FROM people ORDER BY id

-- sql-ref-syntax-qry-select-tvf
SELECT * FROM range(3)

SELECT * FROM range(1, 10, 3)

SELECT * FROM explode(array(10, 20))

SELECT * FROM inline(array(struct(1, 'a'), struct(2, 'b')))

SELECT * FROM stack(2, 1, 2, 3, 4)

SELECT * FROM posexplode(array('x', 'y'))

SELECT id, t.* FROM people, LATERAL explode(tags) t ORDER BY id, t.col

-- sql-ref-syntax-qry-select-window
SELECT id, g, rank() OVER (PARTITION BY g ORDER BY v) AS r FROM sales ORDER BY id

SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM sales ORDER BY id

SELECT id, lag(v) OVER (PARTITION BY g ORDER BY id) AS l, lead(v, 1, 0) OVER (PARTITION BY g ORDER BY id) AS n FROM sales ORDER BY id

SELECT id, dense_rank() OVER w AS dr FROM sales WINDOW w AS (ORDER BY o) ORDER BY id

SELECT id, cume_dist() OVER (ORDER BY o) AS c, ntile(3) OVER (ORDER BY id) AS n FROM sales ORDER BY id

SELECT id, first_value(v) IGNORE NULLS OVER (ORDER BY id) AS f FROM sales ORDER BY id

-- sql-ref-syntax-qry-select-pivot
SELECT * FROM (SELECT g, o, v FROM sales) PIVOT (sum(v) FOR o IN (1, 2, 3)) ORDER BY g

SELECT * FROM (SELECT g, o, v FROM sales) PIVOT (sum(v) AS s, count(v) AS c FOR o IN (1 AS one, 2 AS two)) ORDER BY g

-- sql-ref-syntax-qry-select-unpivot
SELECT * FROM (SELECT 1 AS id, 10 AS q1, 20 AS q2) UNPIVOT (val FOR q IN (q1, q2))

SELECT * FROM (SELECT 1 AS id, 10 AS q1, NULL AS q2) UNPIVOT INCLUDE NULLS (val FOR q IN (q1, q2))

-- sql-ref-syntax-qry-select-lateral-view
SELECT id, t FROM people LATERAL VIEW explode(tags) x AS t ORDER BY id, t

SELECT id, t FROM people LATERAL VIEW OUTER explode(tags) x AS t WHERE id < 5 ORDER BY id, t

SELECT id, p, t FROM people LATERAL VIEW posexplode(tags) x AS p, t ORDER BY id, p

-- sql-ref-syntax-qry-select-lateral-subquery
SELECT p.id, s.m FROM people p, LATERAL (SELECT max(v) AS m FROM sales WHERE sales.id <= p.id) s ORDER BY p.id

-- sql-ref-syntax-qry-select-sampling
SELECT count(*) FROM sales TABLESAMPLE (100 PERCENT)

SELECT count(*) FROM sales TABLESAMPLE (3 ROWS)

-- sql-ref-syntax-qry-select-distinct, subqueries, aliases
SELECT DISTINCT g FROM sales ORDER BY g

SELECT ALL g FROM sales ORDER BY g

SELECT id, (SELECT max(v) FROM sales) AS m FROM people WHERE id = 1

SELECT id FROM people WHERE id IN (SELECT o FROM sales) ORDER BY id

SELECT * FROM people p WHERE p.id = 2

SELECT name AS n, score * 2 AS s2 FROM people WHERE id = 1

-- sql-ref-syntax-aux-describe
DESCRIBE people

DESCRIBE TABLE people name

DESCRIBE QUERY SELECT id, name FROM people

DESCRIBE FUNCTION abs

-- sql-ref-syntax-aux-show
SHOW COLUMNS FROM people

SHOW TABLES LIKE 'peo*'

SHOW PARTITIONS student_part

SHOW FUNCTIONS LIKE 'abs'

SHOW CREATE TABLE student_csv

SHOW TBLPROPERTIES student_csv

-- sql-ref-syntax-aux-conf-mgmt (SET TIME ZONE LOCAL and DESCRIBE DATABASE
-- left out: their answers are the machine's zone and warehouse path)
SET spark.sql.shuffle.partitions = 4

SET spark.sql.shuffle.partitions

RESET spark.sql.shuffle.partitions

SET TIME ZONE 'UTC'

-- sql-ref-syntax-aux-cache, refresh, analyze
CACHE TABLE sales

UNCACHE TABLE IF EXISTS sales

CLEAR CACHE

REFRESH TABLE people

MSCK REPAIR TABLE student_part

ANALYZE TABLE people COMPUTE STATISTICS

ANALYZE TABLE people COMPUTE STATISTICS FOR COLUMNS id, score

-- sql-ref-syntax-qry-explain (the plan text is each engine's own: only that it runs)
EXPLAIN SELECT id FROM people

-- teardown
DROP TABLE student_part

DROP TABLE student_copy
