package main

// Regression tests for the wrong-results bugs of the reliability issue,
// each shaped like the bug as reported: the real binary in a sandbox
// (helpers in safety_test.go), checking exit status and output.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// One unterminated quote on line 3 of a 100,000-row CSV swallowed the rest
// of the file: PERMISSIVE gave 2 rows, DROPMALFORMED 1, both exiting 0.
func TestCSVUnterminatedQuoteCostsOneRow(t *testing.T) {
	s := newSandbox(t)
	var b strings.Builder
	b.WriteString("id,name\n")
	for i := 1; i <= 100000; i++ {
		if i == 2 {
			b.WriteString("2,\"broken\n") // line 3
			continue
		}
		fmt.Fprintf(&b, "%d,n%d\n", i, i)
	}
	write(t, filepath.Join(s.work, "csv", "big.csv"), b.String())
	create := func(name, mode string) {
		s.mustRun(fmt.Sprintf("CREATE TABLE %s (id BIGINT, name STRING, _corrupt_record STRING) USING csv LOCATION 'csv/big.csv' "+
			"OPTIONS (header 'true', mode '%s', dead_letter_location 'dead_%s/')", name, mode, name))
	}
	create("p", "PERMISSIVE")
	create("d", "DROPMALFORMED")
	create("f", "FAILFAST")

	if out := s.mustRun("SELECT count(*) AS n, count(id) AS ids FROM p"); out != "n,ids\n100000,99999\n" {
		t.Fatalf("PERMISSIVE: %q", out)
	}
	if out := s.mustRun("SELECT _corrupt_record FROM p WHERE id IS NULL"); out != "_corrupt_record\n\"2,\"\"broken\"\n" {
		t.Fatalf("PERMISSIVE corrupt record: %q", out)
	}
	if out := s.mustRun("SELECT id, name FROM p WHERE id = 3"); out != "id,name\n3,n3\n" {
		t.Fatalf("the line after the bad one: %q", out)
	}
	if out := s.mustRun("SELECT count(*) AS n FROM d"); out != "n\n99999\n" {
		t.Fatalf("DROPMALFORMED: %q", out)
	}
	dead, err := filepath.Glob(filepath.Join(s.work, "dead_d", "*.json"))
	if err != nil || len(dead) != 1 {
		t.Fatalf("dead letters: %v %v", dead, err)
	}
	if data, _ := os.ReadFile(dead[0]); strings.Count(string(data), "\n") != 1 || !strings.Contains(string(data), `"line":3`) {
		t.Fatalf("dead letter: %s", data)
	}
	s.mustFail("SELECT count(*) FROM f", "big.csv:3: unterminated quoted field")

	// multiline: quoted fields may span lines, and an unterminated one
	// still costs only its first line.
	s.mustRun("CREATE TABLE m (id BIGINT, name STRING) USING csv LOCATION 'csv/big.csv' OPTIONS (header 'true', multiLine 'true')")
	if out := s.mustRun("SELECT count(*) AS n, count(id) AS ids FROM m"); out != "n,ids\n100000,99999\n" {
		t.Fatalf("multiLine: %q", out)
	}
	write(t, filepath.Join(s.work, "csv2", "nl.csv"), "id,s\n1,\"a\nb\"\n2,c\n")
	s.mustRun("CREATE TABLE nl (id BIGINT, s STRING) USING csv LOCATION 'csv2/' OPTIONS (header 'true', multiline 'true')")
	if out := s.mustRun("SELECT id, length(s) AS len FROM nl ORDER BY id"); out != "id,len\n1,3\n2,1\n" {
		t.Fatalf("multiline field: %q", out)
	}
}

// A symlink cycle under a LOCATION read the same file 41 times.
func TestSymlinkCycleReadsEachFileOnce(t *testing.T) {
	s := newSandbox(t)
	write(t, filepath.Join(s.root, "elsewhere", "c.json"), `{"k": "c", "n": 3}`+"\n")
	if err := os.MkdirAll(filepath.Join(s.work, "in", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		filepath.Join(s.work, "in", "a", "b"): "..",
		filepath.Join(s.work, "in", "c.json"): filepath.Join(s.root, "elsewhere", "c.json"),
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	s.mustRun("CREATE TABLE t (k STRING, n BIGINT) USING json LOCATION 'in/' OPTIONS (recursive 'true')")
	if out := s.mustRun("SELECT k, count(*) AS c FROM t GROUP BY k ORDER BY k"); out != "k,c\na,1\nb,1\nc,1\n" {
		t.Fatalf("got %q", out)
	}
}

// A LOCATION that does not exist silently gave an empty table.
func TestMissingLocation(t *testing.T) {
	s := newSandbox(t)
	// Nothing to infer a schema from: an error at CREATE TABLE.
	s.mustFail("CREATE TABLE t USING json LOCATION 'no_such_dir/'", "no_such_dir/ does not exist")
	// Declared columns: the table may be created before its data (the
	// first INSERT makes the folder), but a query warns that it is empty
	// because the location is missing.
	s.mustRun("CREATE TABLE w (k STRING, n BIGINT) USING json LOCATION 'out/'")
	out, errOut, ok := s.run("SELECT count(*) AS n FROM w")
	if !ok || out != "n\n0\n" || !strings.Contains(errOut, "warning: table w: location ") || !strings.Contains(errOut, "out/ does not exist") {
		t.Fatalf("query over a missing location: ok %v, stdout %q, stderr %q", ok, out, errOut)
	}
	s.mustRun("INSERT INTO w VALUES ('a', 1)")
	out, errOut, ok = s.run("SELECT count(*) AS n FROM w")
	if !ok || out != "n\n1\n" || strings.Contains(errOut, "warning") {
		t.Fatalf("after INSERT: ok %v, stdout %q, stderr %q", ok, out, errOut)
	}
}

// runFormat runs `sluice sql --format f -e stmt` in the work folder.
func (s *sandbox) runFormat(format, stmt string) string {
	s.t.Helper()
	cmd := exec.Command(sluiceBin, "sql", "--format", format, "-e", stmt)
	cmd.Dir = s.work
	cmd.Env = s.env
	out, err := cmd.Output()
	if err != nil {
		s.t.Fatalf("%s (%s): %v", stmt, format, err)
	}
	return string(out)
}

// An untyped NULL printed as the string "NULL" in jsonl and csv, and
// CTAS wrote {"x":"(null)"} into the data file.
func TestUntypedNullOutput(t *testing.T) {
	s := newSandbox(t)
	q := "SELECT NULL AS x, 1 AS y, CAST(NULL AS STRING) AS z"
	if got := s.runFormat("jsonl", q); got != `{"x":null,"y":1,"z":null}`+"\n" {
		t.Fatalf("jsonl: %q", got)
	}
	if got := s.runFormat("json", q); got != "[\n"+`{"x":null,"y":1,"z":null}`+"\n]\n" {
		t.Fatalf("json: %q", got)
	}
	if got := s.runFormat("csv", q); got != "x,y,z\n,1,\n" {
		t.Fatalf("csv: %q", got)
	}
	if got := s.runFormat("table", q); !strings.Contains(got, "| NULL | 1 | NULL |") {
		t.Fatalf("table: %q", got)
	}
	s.mustRun("CREATE TABLE j USING json LOCATION 'j/' AS SELECT NULL AS x, 1 AS y")
	s.mustRun("CREATE TABLE c USING csv LOCATION 'c/' OPTIONS (header 'true') AS SELECT NULL AS x, 1 AS y")
	for dir, want := range map[string]string{"j": `{"y":1}` + "\n", "c": "x,y\n,1\n"} {
		files, _ := filepath.Glob(filepath.Join(s.work, dir, "part-*"))
		if len(files) != 1 {
			t.Fatalf("%s: files %v", dir, files)
		}
		if data, _ := os.ReadFile(files[0]); string(data) != want {
			t.Fatalf("%s: data file %q, want %q", dir, data, want)
		}
	}
	if got := s.mustRun("SELECT x, y FROM j UNION ALL SELECT x, y FROM c"); got != "x,y\n,1\n,1\n" {
		t.Fatalf("read back: %q", got)
	}
}

// INSERT STREAM INTO t SELECT ... FROM t fed itself forever.
func TestStreamReadingItsOwnSinkIsRefused(t *testing.T) {
	s := newSandbox(t)
	s.mustRun("CREATE TABLE t (k STRING, n BIGINT) USING json LOCATION 'in/'")
	s.mustRun("CREATE TABLE other (k STRING, n BIGINT) USING json LOCATION 'other/'")
	for _, q := range []string{
		"INSERT STREAM INTO t SELECT k, n FROM t WITH (trigger = '1 second')",
		"INSERT STREAM INTO t SELECT o.k, o.n FROM other o JOIN (SELECT k FROM t) x ON o.k = x.k WITH (trigger = '1 second')",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, sluiceBin, "sql", "--format", "csv", "-e", q)
		cmd.Dir, cmd.Env = s.work, s.env
		out, err := cmd.CombinedOutput()
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut {
			t.Fatalf("%s: still running after 60s: %s", q, out)
		}
		if _, isExit := err.(*exec.ExitError); !isExit || !strings.Contains(string(out), "error: stream t_stream: the query reads t, the table it writes") {
			t.Fatalf("%s: err %v, output %q", q, err, out)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(s.work, "in", "part-*")); len(files) != 0 {
		t.Fatalf("the refused stream wrote %v", files)
	}
	if out := s.mustRun("SHOW STREAMS"); strings.Count(out, "\n") > 1 {
		t.Fatalf("streams left: %q", out)
	}
}

// A password in an endpoint URL was shown by SHOW CREATE TABLE.
func TestEndpointPasswordIsNotShown(t *testing.T) {
	s := newSandbox(t)
	const pw = "Sup3rPW"
	s.mustRun("CREATE TABLE os (k STRING) USING opensearch OPTIONS (endpoint 'http://admin:" + pw + "@127.0.0.1:1', index 'i', retry_max_time '10ms')")
	var all []string
	for _, q := range []string{"SHOW CREATE TABLE os", "DESCRIBE os", "EXPLAIN SELECT k FROM os", "SELECT k FROM os"} {
		out, errOut, _ := s.run(q)
		all = append(all, out, errOut)
	}
	joined := strings.Join(all, "\n")
	if strings.Contains(joined, pw) || !strings.Contains(joined, "http://admin:***@127.0.0.1:1") {
		t.Fatalf("output:\n%s", joined)
	}
	// With the password in the environment, the catalog holds only the
	// reference.
	s.mustRun("CREATE TABLE os2 (k STRING) USING opensearch OPTIONS (endpoint 'http://127.0.0.1:1', index 'i', auth 'basic', user 'admin', password '${env:OS_PW}')")
	cat, err := os.ReadFile(filepath.Join(s.work, "sluice-data", "catalog.json"))
	if err != nil || !strings.Contains(string(cat), "${env:OS_PW}") {
		t.Fatalf("catalog: %v %s", err, cat)
	}
}
