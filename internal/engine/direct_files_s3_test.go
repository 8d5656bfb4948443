package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestS3DirectFileQuery: parquet.`s3://...` and json.`s3://...` read a
// real S3 server's objects directly, with the session's SET s3.*
// settings, and give what the same files give from local disk.
func TestS3DirectFileQuery(t *testing.T) {
	srv := needS3(t)
	bucket := newBucket(t)
	uploadFile(t, bucket, "direct/people.parquet", testdata(t, "data/parquet/people.parquet"))
	uploadFile(t, bucket, "direct/json/people.json", testdata(t, "data/json/people.json"))
	eng := newTestEngine(t)
	for _, s := range []string{
		fmt.Sprintf("SET s3.endpoint = '%s'", srv.Endpoint),
		fmt.Sprintf("SET s3.access_key = '%s'", srv.AccessKey),
		fmt.Sprintf("SET s3.secret_key = '%s'", srv.SecretKey),
		fmt.Sprintf("SET s3.region = '%s'", srv.Region),
		"SET s3.path_style = 'true'",
	} {
		mustExec(t, eng, s)
	}
	for _, c := range []struct{ s3, local string }{
		{"parquet.`s3://" + bucket + "/direct/people.parquet`", "parquet.`" + testdata(t, "data/parquet/people.parquet") + "`"},
		{"json.`s3://" + bucket + "/direct/json/`", "json.`" + testdata(t, "data/json/people.json") + "`"},
	} {
		q := "SELECT id, name, score FROM %s WHERE id > 2"
		got := sortedRows(t, eng, fmt.Sprintf(q, c.s3))
		want := sortedRows(t, eng, fmt.Sprintf(q, c.local))
		if len(got) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n%s\nlocal:\n%s", c.s3, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
