package sparkstmt

import "testing"

// TestSparkLocation: the Location rows pyspark 3.5.3 printed for tables
// made with these local LOCATIONs; the s3 ones follow Hadoop's Path,
// which drops a trailing slash but the root's (no S3 here to run Spark on).
func TestSparkLocation(t *testing.T) {
	for _, c := range []struct{ loc, want string }{
		{"/tmp/spark-names/p3/data", "file:///tmp/spark-names/p3/data"},
		{"/tmp/spark-names/p3/data/", "file:///tmp/spark-names/p3/data"},
		{"/tmp/spark-names/p3/data/a.json", "file:///tmp/spark-names/p3/data/a.json"},
		{"file:///tmp/spark-names/p3/data", "file:///tmp/spark-names/p3/data"},
		{"/tmp/spark-names/p3/da ta", "file:///tmp/spark-names/p3/da%20ta"},
		{"s3://bucket/logs/", "s3://bucket/logs"},
		{"s3://bucket/", "s3://bucket/"},
	} {
		if got := sparkLocation(c.loc); got != c.want {
			t.Errorf("sparkLocation(%q) = %q, want %q", c.loc, got, c.want)
		}
	}
}
