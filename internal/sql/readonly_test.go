package sql

import "testing"

func TestReadOnly(t *testing.T) {
	for q, want := range map[string]bool{
		"SELECT 1": true,
		"select * from t where x = 'DROP TABLE t'":  true,
		"/* INSERT */ SELECT 1":                     true,
		"WITH a AS (SELECT 1 AS x) SELECT x FROM a": true,
		"SHOW TABLES":                            true,
		"DESCRIBE t":                             true,
		"SHOW CREATE TABLE t":                    true,
		"SHOW STREAMS":                           true,
		"DESCRIBE STREAM s":                      true,
		"SHOW MATERIALIZED VIEWS":                true,
		"SHOW SETTINGS":                          true,
		"USE web":                                true,
		"SHOW DATABASES":                         true,
		"SHOW TBLPROPERTIES t":                   true,
		"CREATE DATABASE web":                    false,
		"DROP DATABASE web":                      false,
		"EXPLAIN SELECT 1":                       true,
		"EXPLAIN INSERT INTO t SELECT 1":         true,
		"EXPLAIN ANALYZE SELECT 1":               true,
		"EXPLAIN ANALYZE INSERT INTO t SELECT 1": false,
		"INSERT INTO t SELECT 1":                 false,
		"INSERT INTO t VALUES (1)":               false,
		"INSERT OVERWRITE t SELECT 1":            false,
		"CREATE TABLE t (x INT) USING json LOCATION '/tmp/x/'": false,
		"CREATE TABLE t USING json LOCATION '/x/' AS SELECT 1": false,
		"DROP TABLE t": false,
		"INSERT STREAM INTO t SELECT * FROM s WITH (name = 'f')": false,
		"STOP STREAM f":                                         false,
		"START STREAM f":                                        false,
		"CREATE MATERIALIZED VIEW v AS SELECT 1":                false,
		"REFRESH MATERIALIZED VIEW v":                           false,
		"ALTER MATERIALIZED VIEW v WITH (auto_refresh = false)": false,
		"DROP MATERIALIZED VIEW v":                              false,
		"SET s3.endpoint = 'http://x'":                          false,
		"RESET s3.endpoint":                                     false,
		"SHOW VIEWS":                                            true,
		"SHOW COLUMNS IN t":                                     true,
		"SHOW PARTITIONS t":                                     true,
		"SHOW FUNCTIONS LIKE 'a*'":                              true,
		"DESCRIBE FUNCTION abs":                                 true,
		"DESCRIBE QUERY SELECT * FROM t":                        true,
		"DESCRIBE DATABASE default":                             true,
		"SHOW CATALOGS":                                         true,
		"SHOW CURRENT NAMESPACE":                                true,
		"SET TIME ZONE 'UTC'":                                   false,
		"CREATE TABLE c LIKE t":                                 false,
		"INSERT INTO t BY NAME SELECT 1 AS a":                   false,
		"REFRESH TABLE t":                                       true,
		"UNCACHE TABLE t":                                       true,
		"CLEAR CACHE":                                           true,
		"CACHE TABLE t":                                         false,
		"MSCK REPAIR TABLE t":                                   false,
		"TRUNCATE TABLE t":                                      false,
		"CREATE VIEW v AS SELECT 1":                             false,
		"CREATE TEMPORARY VIEW v AS SELECT 1":                   false,
		"DROP VIEW v":                                           false,
		"ALTER TABLE t ADD COLUMNS (x INT)":                     false,
	} {
		st, err := ParseOne(q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if got := ReadOnly(st); got != want {
			t.Errorf("ReadOnly(%s) = %v, want %v", q, got, want)
		}
	}
	if ReadOnly(nil) {
		t.Error("ReadOnly(nil) = true")
	}
}

func TestWritesData(t *testing.T) {
	for q, want := range map[string]bool{
		"INSERT INTO t SELECT 1":                                 true,
		"INSERT INTO t VALUES (1)":                               true,
		"INSERT OVERWRITE t SELECT 1":                            true,
		"INSERT STREAM INTO t SELECT * FROM s WITH (name = 'f')": true,
		"STOP STREAM f":                                          true,
		"START STREAM f":                                         true,
		"EXPLAIN ANALYZE INSERT INTO t SELECT 1":                 true,
		"TRUNCATE TABLE t":                                       true,
		"MSCK REPAIR TABLE t":                                    false,
		"SELECT 1":                                               false,
		"EXPLAIN INSERT INTO t SELECT 1":                         false,
		"CREATE TABLE t (x INT) USING json LOCATION '/tmp/x/'":   false,
		"CREATE TABLE t USING json LOCATION '/x/' AS SELECT 1":   false,
		"DROP TABLE t":                                           false,
		"CREATE MATERIALIZED VIEW v AS SELECT 1":                 false,
		"REFRESH MATERIALIZED VIEW v":                            false,
		"SET s3.endpoint = 'http://x'":                           false,
		"RESET s3.endpoint":                                      false,
		"CREATE DATABASE d":                                      false,
	} {
		st, err := ParseOne(q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if got := WritesData(st); got != want {
			t.Errorf("WritesData(%s) = %v, want %v", q, got, want)
		}
	}
}
