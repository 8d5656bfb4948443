package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"sluice/internal/storage"
)

// TestS3Errors: a missing bucket, a missing key and bad credentials each
// give one clear line naming the location, never SDK noise or a secret.
func TestS3Errors(t *testing.T) {
	srv := needS3(t)
	bucket := newBucket(t)
	putObject(t, bucket, "ok/a.json", []byte(`{"a": 1}`+"\n"))
	eng := newTestEngine(t)
	badSecret := fmt.Sprintf("OPTIONS (endpoint '%s', access_key '%s', secret_key 'wrong-secret-0123456789', region '%s')",
		srv.Endpoint, srv.AccessKey, srv.Region)
	badKey := fmt.Sprintf("OPTIONS (endpoint '%s', access_key 'nosuchuser', secret_key 'wrong-secret-0123456789', region '%s')",
		srv.Endpoint, srv.Region)
	cases := []struct {
		name string
		// setup runs first and must succeed; sql must fail.
		setup, sql string
		want       []string
		is         error
	}{
		{
			name:  "missing bucket, declared columns",
			setup: fmt.Sprintf("CREATE TABLE nb (a INT) USING json LOCATION 's3://no-such-bucket-x/logs/' %s", s3Opts(srv.Endpoint)),
			sql:   "SELECT a FROM nb",
			want:  []string{"s3://no-such-bucket-x", "bucket does not exist"},
			is:    storage.ErrNotFound,
		},
		{
			name: "missing bucket, inferred schema",
			sql:  fmt.Sprintf("CREATE TABLE nb2 USING json LOCATION 's3://no-such-bucket-y/logs/' %s", s3Opts(srv.Endpoint)),
			want: []string{"s3://no-such-bucket-y", "bucket does not exist"},
			is:   storage.ErrNotFound,
		},
		{
			name: "missing key, inferred schema",
			sql:  fmt.Sprintf("CREATE TABLE nk USING json LOCATION 's3://%s/ok/missing.json' %s", bucket, s3Opts(srv.Endpoint)),
			want: []string{"s3://" + bucket + "/ok/missing.json"},
		},
		{
			name: "wrong secret, inferred schema",
			sql:  fmt.Sprintf("CREATE TABLE bs USING json LOCATION 's3://%s/ok/' %s", bucket, badSecret),
			want: []string{"access denied to s3://" + bucket},
			is:   storage.ErrAccessDenied,
		},
		{
			name:  "wrong secret, query",
			setup: fmt.Sprintf("CREATE TABLE bs2 (a INT) USING json LOCATION 's3://%s/ok/' %s", bucket, badSecret),
			sql:   "SELECT a FROM bs2",
			want:  []string{"access denied to s3://" + bucket},
			is:    storage.ErrAccessDenied,
		},
		{
			name:  "unknown access key, query",
			setup: fmt.Sprintf("CREATE TABLE bk (a INT) USING json LOCATION 's3://%s/ok/a.json' %s", bucket, badKey),
			sql:   "SELECT a FROM bk",
			want:  []string{"access denied to s3://" + bucket},
			is:    storage.ErrAccessDenied,
		},
		{
			name:  "wrong secret, insert",
			setup: fmt.Sprintf("CREATE TABLE bw (a INT) USING json LOCATION 's3://%s/out/' %s", bucket, badSecret),
			sql:   "INSERT INTO bw SELECT 1",
			want:  []string{"access denied to s3://" + bucket},
			is:    storage.ErrAccessDenied,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != "" {
				mustExec(t, eng, c.setup)
			}
			_, err := eng.Execute(t.Context(), c.sql)
			if err == nil {
				t.Fatalf("%s: no error", c.sql)
			}
			t.Logf("%s", err)
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %q is not %v", err, c.is)
			}
			if strings.Contains(err.Error(), "wrong-secret-0123456789") {
				t.Errorf("error shows the secret: %s", err)
			}
			if strings.Count(err.Error(), "\n") > 0 || len(err.Error()) > 300 {
				t.Errorf("error is not one short line: %q", err)
			}
			if strings.Count(err.Error(), "listing ") > 1 {
				t.Errorf("error says listing twice: %s", err)
			}
			parts := strings.Split(err.Error(), ": ")
			for i := 1; i < len(parts); i++ {
				if parts[i] == parts[i-1] {
					t.Errorf("error repeats %q: %s", parts[i], err)
				}
			}
			assertClean(t, err)
		})
	}
}

// TestS3SessionDefaults: SET s3.* gives tables without OPTIONS their
// endpoint and credentials; no secret shows in SHOW SETTINGS, SHOW
// CREATE TABLE, EXPLAIN or DESCRIBE.
func TestS3SessionDefaults(t *testing.T) {
	srv := needS3(t)
	bucket := newBucket(t)
	putObject(t, bucket, "d/a.json", []byte(`{"a": 1, "b": "x"}`+"\n"+`{"a": 2, "b": "y"}`+"\n"))
	eng := newTestEngine(t)
	for _, s := range []string{
		fmt.Sprintf("SET s3.endpoint = '%s'", srv.Endpoint),
		fmt.Sprintf("SET s3.access_key = '%s'", srv.AccessKey),
		fmt.Sprintf("SET s3.secret_key = '%s'", srv.SecretKey),
		fmt.Sprintf("SET s3.region = '%s'", srv.Region),
		"SET s3.path_style = 'true'",
		fmt.Sprintf("CREATE TABLE d USING json LOCATION 's3://%s/d/'", bucket),
		// Table options win over the session's: this one carries its own
		// (equally valid) credentials.
		fmt.Sprintf("CREATE TABLE d2 (a INT) USING json LOCATION 's3://%s/d/' OPTIONS (secret_key '%s', access_key '%s')",
			bucket, srv.SecretKey, srv.AccessKey),
	} {
		mustExec(t, eng, s)
	}
	if got := sortedRows(t, eng, "SELECT a, b FROM d"); strings.Join(got, ",") != "1|x,2|y" {
		t.Errorf("SELECT through session options: %v", got)
	}
	if got := sortedRows(t, eng, "SELECT a FROM d2"); strings.Join(got, ",") != "1,2" {
		t.Errorf("SELECT with table credentials: %v", got)
	}
	for _, q := range []string{"SHOW SETTINGS", "SHOW CREATE TABLE d", "SHOW CREATE TABLE d2",
		"EXPLAIN SELECT a FROM d WHERE a > 1", "EXPLAIN SELECT a FROM d2", "DESCRIBE d2", "SHOW TABLES"} {
		r := mustExec(t, eng, q)
		assertNoSecret(t, q, resultText(r))
	}
	if txt := resultText(mustExec(t, eng, "SHOW CREATE TABLE d2")); !strings.Contains(txt, "secret_key") {
		t.Errorf("SHOW CREATE TABLE d2 should list the (redacted) secret_key option: %s", txt)
	}
	// Without the session secret the same table is refused, clearly.
	mustExec(t, eng, "SET s3.secret_key = 'not-the-secret-0123456789'")
	_, err := eng.Execute(t.Context(), "SELECT a FROM d")
	if err == nil || !strings.Contains(err.Error(), "access denied to s3://"+bucket) || !errors.Is(err, storage.ErrAccessDenied) {
		t.Errorf("wrong session secret: %v", err)
	} else {
		assertClean(t, err)
		if strings.Contains(err.Error(), "not-the-secret") {
			t.Errorf("error shows the secret: %v", err)
		}
	}
}

// TestS3EnvCredentials: with no endpoint or keys in OPTIONS or the
// session, the SDK's default chain reads the AWS_* variables, including
// AWS_ENDPOINT_URL for an S3-compatible store.
func TestS3EnvCredentials(t *testing.T) {
	srv := needS3(t)
	bucket := newBucket(t)
	putObject(t, bucket, "e/a.json", []byte(`{"a": 7}`+"\n"))
	t.Setenv("AWS_ACCESS_KEY_ID", srv.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", srv.SecretKey)
	t.Setenv("AWS_REGION", srv.Region)
	t.Setenv("AWS_ENDPOINT_URL", srv.Endpoint)
	eng := newTestEngine(t)
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE e USING json LOCATION 's3://%s/e/'", bucket))
	if got := sortedRows(t, eng, "SELECT a FROM e"); strings.Join(got, ",") != "7" {
		t.Errorf("SELECT through AWS_* variables: %v", got)
	}
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE eo (a INT) USING json LOCATION 's3://%s/eo/'", bucket))
	mustExec(t, eng, "INSERT INTO eo SELECT a + 1 FROM e")
	if got := sortedRows(t, eng, "SELECT a FROM eo"); strings.Join(got, ",") != "8" {
		t.Errorf("INSERT through AWS_* variables: %v", got)
	}
	t.Setenv("AWS_SECRET_ACCESS_KEY", "env-wrong-secret-0123456789")
	_, err := eng.Execute(t.Context(), "SELECT a FROM e")
	if err == nil || !strings.Contains(err.Error(), "access denied to s3://"+bucket) {
		t.Errorf("wrong AWS_SECRET_ACCESS_KEY: %v", err)
	} else if strings.Contains(err.Error(), "env-wrong-secret") {
		t.Errorf("error shows the secret: %v", err)
	}
}
