package sql

import "testing"

// sparkStatementRoundTrips are Spark's DESCRIBE/SHOW/view/ALTER/auxiliary
// statements with their canonical forms ("" when already canonical).
var sparkStatementRoundTrips = []struct{ in, want string }{
	{"DESCRIBE EXTENDED t", "DESCRIBE TABLE EXTENDED t"},
	{"desc formatted db.t", "DESCRIBE TABLE FORMATTED db.t"},
	{"DESCRIBE TABLE EXTENDED t", ""},
	{"DESCRIBE t name", "DESCRIBE TABLE t name"},
	{"DESCRIBE extended", "DESCRIBE TABLE extended"},
	{"DESCRIBE FUNCTION abs", ""},
	{"DESCRIBE FUNCTION EXTENDED upper", ""},
	{"DESC FUNCTION 'abs'", "DESCRIBE FUNCTION abs"},
	{"DESCRIBE QUERY SELECT 1", ""},
	{"DESC SCHEMA EXTENDED db", "DESCRIBE DATABASE EXTENDED db"},
	{"DESCRIBE NAMESPACE spark_catalog.db", "DESCRIBE DATABASE spark_catalog.db"},
	{"DESCRIBE database", "DESCRIBE TABLE database"},
	{"SHOW CATALOGS", ""},
	{"SHOW CATALOGS 'spark*'", "SHOW CATALOGS LIKE 'spark*'"},
	{"SHOW CURRENT NAMESPACE", ""},
	{"DESC SELECT a FROM t", "DESCRIBE QUERY SELECT a FROM t"},
	{"DESCRIBE QUERY TABLE v", "DESCRIBE QUERY SELECT * FROM v"},
	{"DESCRIBE TABLE v", ""},
	{"DESCRIBE FROM v SELECT a WHERE a > 1", "DESCRIBE QUERY SELECT a FROM v WHERE a > 1"},
	{"DESCRIBE QUERY WITH c AS (SELECT 1 AS z) SELECT * FROM c", ""},
	{"DESCRIBE query", "DESCRIBE TABLE query"},
	{"TABLE db.v", "SELECT * FROM db.v"},
	{"INSERT INTO TABLE t BY NAME SELECT 1 AS a", "INSERT INTO t BY NAME SELECT 1 AS a"},
	{"INSERT OVERWRITE t PARTITION (p = 1) BY NAME SELECT 1 AS a", "INSERT OVERWRITE TABLE t PARTITION (p = 1) BY NAME SELECT 1 AS a"},
	{"FROM t SELECT a, b WHERE a > 1 GROUP BY a, b", "SELECT a, b FROM t WHERE a > 1 GROUP BY a, b"},
	{"SHOW FUNCTIONS", ""},
	{"SHOW USER FUNCTIONS", ""},
	{"SHOW SYSTEM FUNCTIONS LIKE 'a*'", ""},
	{"SHOW FUNCTIONS 'upp*|low*'", "SHOW FUNCTIONS LIKE 'upp*|low*'"},
	{"SHOW COLUMNS IN t", ""},
	{"SHOW COLUMNS FROM t IN db", "SHOW COLUMNS IN db.t"},
	{"SHOW PARTITIONS db.t", ""},
	{"SHOW TABLES LIKE 'a*'", ""},
	{"SHOW TABLES IN db 'a*|b'", "SHOW TABLES IN db LIKE 'a*|b'"},
	{"SHOW TABLE EXTENDED LIKE 'p*'", ""},
	{"SHOW TABLE EXTENDED IN db LIKE 'p*'", ""},
	{"SHOW VIEWS", ""},
	{"SHOW VIEWS FROM db LIKE 'v*'", "SHOW VIEWS IN db LIKE 'v*'"},
	{"CREATE VIEW v AS SELECT a FROM t", ""},
	{"CREATE OR REPLACE TEMPORARY VIEW v (x, y) AS SELECT a, b FROM t", ""},
	{"CREATE TEMP VIEW IF NOT EXISTS v COMMENT 'c' AS (SELECT 1)", "CREATE TEMPORARY VIEW IF NOT EXISTS v COMMENT 'c' AS (SELECT 1)"},
	{"CREATE VIEW v (x COMMENT 'first') AS SELECT 1", "CREATE VIEW v (x COMMENT 'first') AS SELECT 1"},
	{"DROP VIEW IF EXISTS db.v", ""},
	{"ALTER TABLE t ADD COLUMNS (c STRING, d INT COMMENT 'x')", ""},
	{"ALTER TABLE t ADD COLUMN (c STRING)", "ALTER TABLE t ADD COLUMNS (c STRING)"},
	{"ALTER TABLE t RENAME TO db.t2", ""},
	{"ALTER TABLE t SET TBLPROPERTIES ('k'='v')", "ALTER TABLE t SET TBLPROPERTIES (k = 'v')"},
	{"ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('k', 'a.b')", ""},
	{"ALTER TABLE t SET LOCATION '/data/x'", ""},
	{"TRUNCATE TABLE t", ""},
	{"REFRESH TABLE t", ""},
	{"REFRESH t", "REFRESH TABLE t"},
	{"MSCK REPAIR TABLE t", ""},
	{"CACHE TABLE t", ""},
	{"CACHE LAZY TABLE t", ""},
	{"UNCACHE TABLE IF EXISTS t", ""},
	{"CLEAR CACHE", ""},
	{"SET TIME ZONE 'UTC'", ""},
	{"SET TIME ZONE LOCAL", ""},
	{"SET TIME ZONE INTERVAL 0 HOURS", "SET TIME ZONE INTERVAL '0 HOURS'"},
	{"CREATE TABLE t2 LIKE t", ""},
	{"CREATE TABLE IF NOT EXISTS t2 LIKE t USING parquet LOCATION '/x'", ""},
	{"ANALYZE TABLE t COMPUTE STATISTICS", ""},
	{"ANALYZE TABLE t COMPUTE STATISTICS NOSCAN", ""},
	// The names these statements use stay names elsewhere.
	{"SELECT cache, truncate, msck, views FROM functions", ""},
	{"SET time = 1", "SET time = 1"},
}

func TestSparkStatementsRoundTrip(t *testing.T) { checkRoundTrips(t, sparkStatementRoundTrips) }

func TestSparkStatementsErrors(t *testing.T) {
	for _, in := range []string{
		"CREATE GLOBAL TEMPORARY VIEW v AS SELECT 1",
		"CREATE OR REPLACE VIEW IF NOT EXISTS v AS SELECT 1",
		"ALTER TABLE t DROP COLUMN c",
		"ALTER TABLE t ADD COLUMNS (WATERMARK FOR ts AS ts)",
		"CACHE TABLE t AS SELECT 1",
		"SET TIME ZONE",
		"TRUNCATE t",
	} {
		if _, err := ParseOne(in); err == nil {
			t.Errorf("ParseOne(%q) = nil error", in)
		}
	}
}
