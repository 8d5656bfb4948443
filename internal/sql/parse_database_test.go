package sql

import (
	"fmt"
	"testing"
)

// TestSparkDDLRoundTrip checks the Spark and Flint DDL forms parse and
// print back canonically.
func TestSparkDDLRoundTrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"CREATE EXTERNAL TABLE student (id INT, name STRING, age INT) USING parquet LOCATION '/tmp/student'",
			"CREATE EXTERNAL TABLE student (id INT, name STRING, age INT) USING parquet LOCATION '/tmp/student'"},
		{"CREATE TABLE IF NOT EXISTS spark_catalog.default.alb_logs (a INT) USING json OPTIONS (path '/x')",
			"CREATE TABLE IF NOT EXISTS spark_catalog.default.alb_logs (a INT) USING json OPTIONS (path = '/x')"},
		{"CREATE TABLE s (id INT) USING CSV TBLPROPERTIES ('foo'='bar') COMMENT 'c'",
			"CREATE TABLE s (id INT) USING CSV COMMENT 'c' TBLPROPERTIES (foo = 'bar')"},
		{"SELECT * FROM spark_catalog.default.t AS x", "SELECT * FROM spark_catalog.default.t AS x"},
		{"SELECT * FROM db.`my t`", "SELECT * FROM db.`my t`"},
		{"CREATE DATABASE IF NOT EXISTS db COMMENT 'x'", "CREATE DATABASE IF NOT EXISTS db COMMENT 'x'"},
		{"CREATE SCHEMA db WITH DBPROPERTIES (a = 1)", "CREATE DATABASE db WITH DBPROPERTIES (a = 1)"},
		{"DROP DATABASE IF EXISTS db CASCADE", "DROP DATABASE IF EXISTS db CASCADE"},
		{"DROP SCHEMA db RESTRICT", "DROP DATABASE db"},
		{"USE DATABASE db", "USE db"},
		{"USE spark_catalog.default", "USE spark_catalog.default"},
		{"SHOW DATABASES", "SHOW DATABASES"},
		{"SHOW SCHEMAS LIKE 'd*'", "SHOW DATABASES LIKE 'd*'"},
		{"SHOW TABLES IN spark_catalog.default", "SHOW TABLES IN spark_catalog.default"},
		{"SHOW TABLES FROM db", "SHOW TABLES IN db"},
		{"SHOW MATERIALIZED VIEWS IN spark_catalog.default", "SHOW MATERIALIZED VIEWS IN spark_catalog.default"},
		{"SHOW MATERIALIZED VIEW IN spark_catalog", "SHOW MATERIALIZED VIEWS IN spark_catalog"},
		{"SHOW TBLPROPERTIES t ('foo')", "SHOW TBLPROPERTIES t ('foo')"},
		{"VACUUM MATERIALIZED VIEW db.v", "VACUUM MATERIALIZED VIEW db.v"},
		{"DROP TABLE IF EXISTS spark_catalog.default.t", "DROP TABLE IF EXISTS spark_catalog.default.t"},
		{"INSERT INTO db.t SELECT 1", "INSERT INTO db.t SELECT 1"},
	}
	for _, tc := range tests {
		s, err := ParseOne(tc.in)
		if err != nil {
			t.Errorf("ParseOne(%q): %v", tc.in, err)
			continue
		}
		if got := s.String(); got != tc.want {
			t.Errorf("ParseOne(%q).String()\n got %s\nwant %s", tc.in, got, tc.want)
			continue
		}
		again, err := ParseOne(tc.want)
		if err != nil || again.String() != tc.want {
			t.Errorf("re-parsing %q: %v %v", tc.want, again, err)
		}
	}
}

func TestSparkDDLFields(t *testing.T) {
	s, err := ParseOne("CREATE EXTERNAL TABLE a.b (x INT) USING json TBLPROPERTIES ('k' = 'v')")
	if err != nil {
		t.Fatal(err)
	}
	c := s.(*CreateTable)
	if !c.External || c.Name != "a.b" || len(c.TblProperties) != 1 || c.TblProperties[0].Key != "k" {
		t.Errorf("got %+v", c)
	}
	if got := fmt.Sprint(SplitName(c.Name)); got != "[a b]" {
		t.Errorf("SplitName = %s", got)
	}
	for _, bad := range []string{"CREATE TABLE a.b.c.d (x INT)", "USE", "SHOW TBLPROPERTIES"} {
		if _, err := ParseOne(bad); err == nil {
			t.Errorf("ParseOne(%q) succeeded", bad)
		}
	}
}
