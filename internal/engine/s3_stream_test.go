package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestS3Stream streams from an S3 table into an S3 table with its
// checkpoint in S3 (endpoint and keys from SET s3.*): a second run picks
// up only the object that landed since, and the result equals a batch
// INSERT over the same objects.
func TestS3Stream(t *testing.T) {
	srv := needS3(t)
	bucket := newBucket(t)
	for i := 0; i < 4; i++ {
		putObject(t, bucket, fmt.Sprintf("in/f%d.json", i), []byte(fmt.Sprintf("{\"id\": %d, \"status\": %d}\n{\"id\": %d, \"status\": 500}\n", i*2, 200+i, i*2+1)))
	}
	eng := newTestEngine(t)
	for _, s := range []string{
		fmt.Sprintf("SET s3.endpoint = '%s'", srv.Endpoint),
		fmt.Sprintf("SET s3.access_key = '%s'", srv.AccessKey),
		fmt.Sprintf("SET s3.secret_key = '%s'", srv.SecretKey),
		fmt.Sprintf("SET s3.region = '%s'", srv.Region),
		fmt.Sprintf("CREATE TABLE src (id BIGINT, status INT) USING json LOCATION 's3://%s/in/'", bucket),
		fmt.Sprintf("CREATE TABLE out (id BIGINT, status INT) USING parquet LOCATION 's3://%s/out/'", bucket),
		fmt.Sprintf("CREATE TABLE batch (id BIGINT, status INT) USING parquet LOCATION 's3://%s/batch/'", bucket),
	} {
		mustExec(t, eng, s)
	}
	stmt := fmt.Sprintf("INSERT STREAM INTO out SELECT id, status FROM src WHERE status >= 200 "+
		"WITH (name = 'feed', trigger = 'available_now', max_files_per_trigger = 2, checkpoint_location = 's3://%s/cp/feed')", bucket)
	mustExec(t, eng, stmt)
	putObject(t, bucket, "in/f9.json", []byte("{\"id\": 99, \"status\": 201}\n"))
	mustExec(t, eng, stmt)
	mustExec(t, eng, "INSERT INTO batch SELECT id, status FROM src WHERE status >= 200")
	got, want := sortedRows(t, eng, "SELECT id, status FROM out"), sortedRows(t, eng, "SELECT id, status FROM batch")
	if strings.Join(got, ",") != strings.Join(want, ",") || len(got) != 9 {
		t.Fatalf("stream wrote %v\nbatch wrote %v", got, want)
	}
	// The checkpoint is in the bucket.
	var keys []string
	st := s3Store(t, bucket)
	if err := st.List(t.Context(), "cp/feed/", "", func(o objectInfo) error {
		keys = append(keys, o.Key)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !containsPrefix(keys, "cp/feed/offsets/") || !containsPrefix(keys, "cp/feed/commits/") {
		t.Errorf("checkpoint objects: %v", keys)
	}
	for _, q := range []string{"SHOW STREAMS", "DESCRIBE STREAM feed", "SHOW SETTINGS"} {
		if r, err := eng.Execute(t.Context(), q); err == nil {
			assertNoSecret(t, q, resultText(r[len(r)-1]))
		}
	}
}

func containsPrefix(keys []string, p string) bool {
	for _, k := range keys {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}
