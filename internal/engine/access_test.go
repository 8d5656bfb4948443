package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/usererr"
)

// TestRestrictedSessionDirectFiles: a restricted session reads catalog
// tables and allowed locations, and gets a Forbidden error naming the
// rule for any other path (the catalog file, /etc/passwd, s3://) before
// anything is opened.
func TestRestrictedSessionDirectFiles(t *testing.T) {
	eng := newTestEngine(t)
	dir := t.TempDir()
	allowed := filepath.Join(dir, "shared")
	writeFile(t, filepath.Join(allowed, "a.json"), `{"x": 1}`+"\n")
	writeFile(t, filepath.Join(dir, "tbl", "t.json"), `{"x": 2}`+"\n")
	mustExec(t, eng, "CREATE TABLE t USING json LOCATION '"+filepath.Join(dir, "tbl")+"'")

	ls, err := ParseLocations([]string{allowed})
	if err != nil {
		t.Fatal(err)
	}
	s := eng.NewSession("bob")
	s.RestrictData("user bob (role read)", ls)

	if rows := sessionRows(t, s, "SELECT x FROM t"); len(rows) != 1 {
		t.Errorf("catalog table rows = %v", rows)
	}
	if rows := sessionRows(t, s, "SELECT x FROM json.`"+allowed+"`"); len(rows) != 1 {
		t.Errorf("allowed location rows = %v", rows)
	}
	for _, q := range []string{
		"SELECT * FROM csv.`" + filepath.Join(eng.opts.DataDir, "catalog.json") + "`",
		"SELECT * FROM csv.`/etc/passwd`",
		"SELECT * FROM json.`" + allowed + "/../tbl`",
		"SELECT * FROM parquet.`s3://bucket/x.parquet`",
		"EXPLAIN SELECT * FROM csv.`/etc/passwd`",
		"SELECT * FROM t WHERE x IN (SELECT 1 FROM csv.`/etc/passwd`)",
	} {
		_, err := s.Execute(t.Context(), q)
		if k, _ := usererr.KindOf(err); k != usererr.Forbidden {
			t.Errorf("%s: err = %v, want Forbidden", q, err)
			continue
		}
		if !strings.Contains(err.Error(), "user bob (role read) may read files only through catalog tables or --allow-location prefixes") {
			t.Errorf("%s: err = %v, want the rule named", q, err)
		}
	}
	// Nor can it put a table or a database over another path.
	for _, q := range []string{
		"CREATE TABLE etc USING csv LOCATION '/etc/'",
		"CREATE TABLE etc2 USING csv OPTIONS (path '/etc/passwd')",
		"CREATE DATABASE etc LOCATION '/etc'",
	} {
		if _, err := s.Execute(t.Context(), q); err == nil || !strings.Contains(err.Error(), "user bob (role read) may set LOCATION only under --allow-location prefixes") {
			t.Errorf("%s: err = %v, want the refusal", q, err)
		}
	}
	sessionRows(t, s, "CREATE TABLE mine (x BIGINT) USING json LOCATION '"+filepath.Join(allowed, "mine")+"'")
	// The CLI's session and an unrestricted one are not limited.
	if _, err := eng.NewSession("admin").Execute(t.Context(), "SELECT * FROM csv.`/etc/passwd`"); err != nil {
		t.Errorf("unrestricted session: %v", err)
	}
}

// TestRestrictedSessionStreamLocations: a restricted session's stream
// may checkpoint under the data dir's checkpoints/ (the default) or an
// allowed location, and nowhere else; its dead letters and queue go only
// to allowed locations.
func TestRestrictedSessionStreamLocations(t *testing.T) {
	eng := newTestEngine(t)
	dir := t.TempDir()
	allowed := filepath.Join(dir, "shared")
	writeFile(t, filepath.Join(dir, "src", "a.json"), `{"x": 1}`+"\n")
	mustExec(t, eng, "CREATE TABLE src USING json LOCATION '"+filepath.Join(dir, "src")+"'")
	mustExec(t, eng, "CREATE TABLE out (x BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"'")
	ls, err := ParseLocations([]string{allowed})
	if err != nil {
		t.Fatal(err)
	}
	s := eng.NewSession("wendy")
	s.RestrictData("user wendy (role write)", ls)

	stream := func(with string) error {
		_, err := s.Execute(t.Context(), "INSERT STREAM INTO out SELECT x FROM src WITH (trigger = 'available_now'"+with+")")
		return err
	}
	for _, with := range []string{
		"",
		", name = 'b', checkpoint_location = '" + filepath.Join(eng.opts.DataDir, "checkpoints", "b") + "'",
		", name = 'c', checkpoint_location = '" + filepath.Join(allowed, "cp") + "'",
	} {
		if err := stream(with); err != nil {
			t.Errorf("WITH (...%s): %v", with, err)
		}
	}
	for _, with := range []string{
		", checkpoint_location = '/etc/sluice-cp'",
		", checkpoint_location = '" + filepath.Join(eng.opts.DataDir, "checkpoints", "..") + "'",
		", checkpoint_location = 's3://bucket/cp'",
		", dead_letter_location = '/tmp/dead'",
		", queue = 'nats://127.0.0.1:4222/s/c'",
	} {
		err := stream(with)
		if k, _ := usererr.KindOf(err); k != usererr.Forbidden || !strings.Contains(err.Error(), "user wendy (role write) may set") {
			t.Errorf("WITH (...%s): err = %v, want Forbidden naming the rule", with, err)
		}
	}
	if _, err := os.Stat("/etc/sluice-cp"); err == nil {
		t.Error("a refused checkpoint was created")
	}
}
