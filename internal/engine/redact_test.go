package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A password in an endpoint URL (http://user:PW@host) was shown by SHOW
// CREATE TABLE. No statement that shows options, plans, streams or
// errors may print it.
func TestURLUserInfoIsNeverShown(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "in", "a.json"), `{"k": "a"}`+"\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const pw = "Sup3rPW"
	mustExecAll(t, eng,
		"CREATE TABLE src (k STRING) USING json LOCATION '"+filepath.Join(dir, "in")+"/'",
		"CREATE TABLE os (k STRING) USING opensearch OPTIONS (endpoint 'http://admin:"+pw+"@127.0.0.1:1', index 'i', retry_max_time '1ms')",
		"CREATE TABLE s3t (k STRING) USING json LOCATION 's3://bucket/p/' OPTIONS (endpoint 'http://key:"+pw+"@127.0.0.1:1')",
		"SET s3.endpoint = 'http://key:"+pw+"@127.0.0.1:1'",
	)
	var shown []string
	for _, q := range []string{
		"SHOW CREATE TABLE os", "SHOW CREATE TABLE s3t", "DESCRIBE os", "SHOW TABLES", "SHOW SETTINGS",
		"EXPLAIN SELECT k FROM os", "EXPLAIN INSERT INTO os SELECT k FROM src",
	} {
		res, err := eng.Execute(ctx, q)
		if err != nil {
			shown = append(shown, err.Error())
			continue
		}
		for _, r := range res {
			shown = append(shown, r.Statement+" "+r.Message+" "+strings.Join(rowsOf(t, r), "\n"))
		}
	}
	// Statements that fail name the endpoint in their errors.
	for _, q := range []string{
		"SELECT * FROM os",
		"INSERT STREAM INTO os SELECT k FROM src WITH (name = 'feed', trigger = 'available_now')",
		"SHOW STREAMS", "DESCRIBE STREAM feed",
		"CREATE TABLE bad (k STRING) USING json LOCATION 'http://u:" + pw + "@h/x'",
	} {
		res, err := eng.Execute(ctx, q)
		if err != nil {
			shown = append(shown, err.Error())
		}
		for _, r := range res {
			shown = append(shown, r.Statement+" "+r.Message+" "+strings.Join(rowsOf(t, r), "\n"))
		}
	}
	all := strings.Join(shown, "\n")
	if strings.Contains(all, pw) {
		t.Fatalf("the password is shown:\n%s", all)
	}
	if !strings.Contains(all, "http://admin:***@127.0.0.1:1") {
		t.Fatalf("the endpoint should still be shown, redacted:\n%s", all)
	}
}
