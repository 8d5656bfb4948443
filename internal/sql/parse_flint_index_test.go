package sql

import "testing"

func TestParseFlintIndexStatements(t *testing.T) {
	cases := []struct{ in, want string }{
		{"CREATE SKIPPING INDEX ON alb_logs (year PARTITION, elb_status_code VALUE_SET, client_ip VALUE_SET(20), request_processing_time MIN_MAX, ip BLOOM_FILTER(false, 1000, 0.01))",
			"CREATE SKIPPING INDEX ON alb_logs (year PARTITION, elb_status_code VALUE_SET, client_ip VALUE_SET(20), request_processing_time MIN_MAX, ip BLOOM_FILTER(FALSE, 1000, 0.01))"},
		{"create skipping index if not exists on db.t (a min_max) with (auto_refresh = true)",
			"CREATE SKIPPING INDEX IF NOT EXISTS ON db.t (a MIN_MAX) WITH (auto_refresh = TRUE)"},
		{"CREATE INDEX elb_and_requestUri ON alb_logs ( elb, requestUri ) WHERE elb > 1 WITH (auto_refresh = true, refresh_interval = '1 minute')",
			"CREATE INDEX elb_and_requestUri ON alb_logs (elb, requestUri) WHERE elb > 1 WITH (auto_refresh = TRUE, refresh_interval = '1 minute')"},
		{"REFRESH SKIPPING INDEX ON alb_logs", "REFRESH SKIPPING INDEX ON alb_logs"},
		{"DESC SKIPPING INDEX ON alb_logs", "DESCRIBE SKIPPING INDEX ON alb_logs"},
		{"ALTER SKIPPING INDEX ON alb_logs WITH ( auto_refresh = false )", "ALTER SKIPPING INDEX ON alb_logs WITH (auto_refresh = FALSE)"},
		{"DROP SKIPPING INDEX ON alb_logs", "DROP SKIPPING INDEX ON alb_logs"},
		{"VACUUM SKIPPING INDEX ON alb_logs", "VACUUM SKIPPING INDEX ON alb_logs"},
		{"REFRESH INDEX elb ON alb_logs", "REFRESH INDEX elb ON alb_logs"},
		{"DESCRIBE INDEX elb ON alb_logs", "DESCRIBE INDEX elb ON alb_logs"},
		{"ALTER INDEX elb ON alb_logs WITH (auto_refresh = false)", "ALTER INDEX elb ON alb_logs WITH (auto_refresh = FALSE)"},
		{"DROP INDEX elb ON alb_logs", "DROP INDEX elb ON alb_logs"},
		{"VACUUM INDEX elb ON alb_logs", "VACUUM INDEX elb ON alb_logs"},
		{"SHOW INDEX ON alb_logs", "SHOW INDEXES ON alb_logs"},
		{"SHOW INDEXES ON alb_logs", "SHOW INDEXES ON alb_logs"},
		{"SHOW FLINT INDEXES IN spark_catalog.default", "SHOW FLINT INDEXES IN spark_catalog.default"},
		{"SHOW FLINT INDEX EXTENDED IN spark_catalog", "SHOW FLINT INDEXES EXTENDED IN spark_catalog"},
		{"RECOVER INDEX JOB `flint_spark_catalog_default_test_skipping_index`", "RECOVER INDEX JOB flint_spark_catalog_default_test_skipping_index"},
		{"ANALYZE SKIPPING INDEX ON alb_logs", "ANALYZE SKIPPING INDEX ON alb_logs"},
		// Other statements keep their parsers.
		{"DESCRIBE t", "DESCRIBE TABLE t"},
		{"DROP TABLE t", "DROP TABLE t"},
	}
	for _, c := range cases {
		st, err := ParseOne(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := st.String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
	for _, bad := range []string{
		"CREATE SKIPPING INDEX ON t (a FOO)",
		"CREATE SKIPPING INDEX ON t ()",
		"CREATE INDEX ON t (a)",
		"ALTER SKIPPING INDEX ON t",
		"RECOVER INDEX t",
	} {
		if _, err := ParseOne(bad); err == nil {
			t.Errorf("%s: parsed", bad)
		}
	}
}

func TestFlintIndexReadOnly(t *testing.T) {
	for q, want := range map[string]bool{
		"SHOW INDEXES ON t":                                 true,
		"SHOW FLINT INDEXES":                                true,
		"DESCRIBE SKIPPING INDEX ON t":                      true,
		"DESC INDEX i ON t":                                 true,
		"ANALYZE SKIPPING INDEX ON t":                       true,
		"CREATE SKIPPING INDEX ON t (a MIN_MAX)":            false,
		"CREATE INDEX i ON t (a)":                           false,
		"REFRESH SKIPPING INDEX ON t":                       false,
		"ALTER INDEX i ON t WITH (auto_refresh = false)":    false,
		"DROP SKIPPING INDEX ON t":                          false,
		"VACUUM INDEX i ON t":                               false,
		"RECOVER INDEX JOB flint_spark_catalog_default_t_x": false,
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
}
