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

// TestS3DirectFileRestricted: a restricted session reads a real S3
// server's objects under an allowed s3://bucket/prefix, and is refused a
// path of the same bucket outside it or another bucket.
func TestS3DirectFileRestricted(t *testing.T) {
	srv := needS3(t)
	bucket := newBucket(t)
	uploadFile(t, bucket, "shared/json/people.json", testdata(t, "data/json/people.json"))
	uploadFile(t, bucket, "private/people.json", testdata(t, "data/json/people.json"))
	eng := newTestEngine(t)
	ls, err := ParseLocations([]string{"s3://" + bucket + "/shared/"})
	if err != nil {
		t.Fatal(err)
	}
	s := eng.NewSession("bob")
	s.RestrictData("user bob (role read)", ls)
	for _, q := range []string{
		fmt.Sprintf("SET s3.endpoint = '%s'", srv.Endpoint),
		fmt.Sprintf("SET s3.access_key = '%s'", srv.AccessKey),
		fmt.Sprintf("SET s3.secret_key = '%s'", srv.SecretKey),
		fmt.Sprintf("SET s3.region = '%s'", srv.Region),
		"SET s3.path_style = 'true'",
	} {
		sessionRows(t, s, q)
	}
	if rows := sessionRows(t, s, "SELECT id FROM json.`s3://"+bucket+"/shared/json/`"); len(rows) == 0 {
		t.Error("no rows from the allowed prefix")
	}
	for _, p := range []string{"s3://" + bucket + "/private/people.json", "s3://" + bucket + "/shared2/x.json", "s3://" + bucket + "/shared/../private/"} {
		_, err := s.Execute(t.Context(), "SELECT id FROM json.`"+p+"`")
		if err == nil || !strings.Contains(err.Error(), "may read files only through catalog tables") {
			t.Errorf("%s: err = %v, want the refusal", p, err)
		}
	}
}
