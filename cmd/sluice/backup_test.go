package main

// `sluice backup` of a data dir while `sluice serve` runs a stream into
// a local index, `sluice restore` into a new data dir, and a server on
// it resuming: the index ends equal to the batch answer, no row lost
// and none twice. Once to a local folder, once to a real S3 gateway.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"sluice/internal/testutil/s3server"
)

func TestBackupMidRunRestoreExactlyOnce(t *testing.T) {
	t.Run("local", func(t *testing.T) { backupRestoreExactlyOnce(t, "") })
	t.Run("s3", func(t *testing.T) {
		srv := s3server.StartTB(t)
		if err := srv.CreateBucket("backups"); err != nil {
			t.Fatal(err)
		}
		// The server takes the backup with its own credentials.
		t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
		t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
		t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
		t.Setenv("AWS_ACCESS_KEY_ID", srv.AccessKey)
		t.Setenv("AWS_SECRET_ACCESS_KEY", srv.SecretKey)
		t.Setenv("SLUICE_S3_ENDPOINT", srv.Endpoint)
		t.Setenv("SLUICE_S3_REGION", srv.Region)
		backupRestoreExactlyOnce(t, "s3://backups/monday/")
	})
}

func runSluice(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(sluiceBin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String() + errb.String(), err
}

func backupRestoreExactlyOnce(t *testing.T, dest string) {
	root := t.TempDir()
	in, data, data2 := filepath.Join(root, "in"), filepath.Join(root, "data"), filepath.Join(root, "restored")
	if dest == "" {
		dest = filepath.Join(root, "backup")
	}
	const files, rows = 60, 25
	writeInputs(t, in, 0, files, rows)
	p := startServe(t, data)
	mustRemote(t, p.url, "CREATE TABLE src (id BIGINT, host STRING, bytes BIGINT) USING json LOCATION '"+in+"/'")
	// No id option: each document's id is the stream's write id, epoch,
	// occurrence and row (docid.Rows), the hard case for a replay.
	mustRemote(t, p.url, "CREATE TABLE sink (id BIGINT, host STRING, bytes BIGINT) USING index")
	mustRemote(t, p.url, "INSERT STREAM INTO sink SELECT id, host, bytes * 2 AS bytes FROM src WHERE id % 3 <> 1 "+
		"WITH (name = 'feed', trigger = '200 milliseconds', max_files_per_trigger = 1)")
	// And a stateful one: its counts need the state of the backed-up
	// commit, no more and no less. Its documents are named by host.
	mustRemote(t, p.url, "CREATE TABLE counts (host STRING, n BIGINT, b BIGINT) USING index")
	mustRemote(t, p.url, "INSERT STREAM INTO counts SELECT host, count(*) AS n, sum(bytes) AS b FROM src GROUP BY host "+
		"WITH (name = 'tally', output_mode = 'update', trigger = '200 milliseconds', max_files_per_trigger = 1)")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if csvCount(t, mustRemote(t, p.url, "SELECT count(*) FROM sink")) > 100 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream wrote nothing in 30s: %s", p.log())
		}
	}

	out, err := runSluice(t, "backup", "--data-dir", data, dest)
	if err != nil {
		t.Fatalf("sluice backup: %v: %s", err, out)
	}
	if !strings.Contains(out, "the server takes the backup") {
		t.Fatalf("sluice backup did not go through the server: %s", out)
	}
	m := regexp.MustCompile(`checkpoints/feed at commit (-?\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("sluice backup printed no commit for feed: %s", out)
	}
	commit, _ := strconv.Atoi(m[1])
	if commit < 0 || commit >= files-1 {
		t.Fatalf("backed up at commit %d of %d epochs: not mid-run, the test proves nothing", commit, files)
	}
	if out, err := runSluice(t, "backup", "--data-dir", data, dest); err == nil || !strings.Contains(out, "already holds a backup") {
		t.Fatalf("a second backup to the same place: %v: %s", err, out)
	}
	p.kill9(t)
	if !strings.HasPrefix(dest, "s3://") {
		// With no server, the command copies the data dir itself,
		// holding its lock.
		out, err := runSluice(t, "backup", "--data-dir", data, filepath.Join(root, "offline"))
		if err != nil || strings.Contains(out, "the server takes") || !strings.Contains(out, "checkpoints/feed at commit") {
			t.Fatalf("sluice backup with no server: %v: %s", err, out)
		}
	}

	writeInputs(t, in, files, files+5, rows) // more lands while nothing runs
	if out, err := runSluice(t, "restore", dest, "--data-dir", data2); err != nil {
		t.Fatalf("sluice restore: %v: %s", err, out)
	} else if !strings.Contains(out, "checkpoints/feed resumes after commit "+m[1]) {
		t.Fatalf("sluice restore: %s", out)
	}
	if out, err := runSluice(t, "restore", dest, "--data-dir", data2); err == nil || !strings.Contains(out, "not empty") {
		t.Fatalf("a restore into a non-empty data dir: %v: %s", err, out)
	}
	cat, err := os.ReadFile(filepath.Join(data2, "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cat), data+string(filepath.Separator)) {
		t.Fatalf("the restored catalog still names the old data dir: %s", cat)
	}

	p = startServe(t, data2)
	want := csvCount(t, mustRemote(t, p.url, "CREATE TABLE batch (id BIGINT, host STRING, bytes BIGINT) USING parquet LOCATION '"+
		filepath.Join(root, "batch")+"/'; INSERT INTO batch SELECT id, host, bytes * 2 AS bytes FROM src WHERE id % 3 <> 1; SELECT count(*) FROM batch"))
	deadline := time.Now().Add(60 * time.Second)
	for csvCount(t, mustRemote(t, p.url, "SELECT count(*) FROM sink")) < want && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	// One more epoch's time: a duplicate would show as a count past want.
	time.Sleep(300 * time.Millisecond)
	sorted := func(q string) []string {
		lines := strings.Split(strings.TrimSpace(mustRemote(t, p.url, q)), "\n")[1:]
		sort.Strings(lines)
		return lines
	}
	got, exp := sorted("SELECT id, host, bytes FROM sink"), sorted("SELECT id, host, bytes FROM batch")
	if len(got) != len(exp) {
		t.Fatalf("restored from commit %d, the sink has %d rows, the batch %d", commit, len(got), len(exp))
	}
	for i := range got {
		if got[i] != exp[i] {
			t.Fatalf("row %d: sink %q, batch %q", i, got[i], exp[i])
		}
	}
	wantCounts := strings.Join(sorted("SELECT host, count(*) AS n, sum(bytes) AS b FROM src GROUP BY host"), "\n")
	var gotCounts string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if gotCounts = strings.Join(sorted("SELECT host, n, b FROM counts"), "\n"); gotCounts == wantCounts {
			break
		}
	}
	if gotCounts != wantCounts {
		t.Fatalf("the restored stateful stream's counts:\n%s\nwant:\n%s", gotCounts, wantCounts)
	}
	t.Logf("backed up at commit %d of %d epochs; %d rows exactly once after restore", commit, files, len(got))
}
