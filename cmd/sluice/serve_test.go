package main

// Tests of `sluice serve` as a process: kill -9 mid-stream and restart
// (exactly once), SIGTERM (clean exit 0), one server per data dir,
// `sluice sql --server`, and the OpenSearch SQL CLI as a real client.

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sluice/internal/testutil/integration"
)

// serveProc is one running `sluice serve`.
type serveProc struct {
	cmd  *exec.Cmd
	url  string
	mu   sync.Mutex
	logs bytes.Buffer
	done chan error
}

// startServe starts `sluice serve` over dataDir on a free loopback port
// and waits until it listens.
func startServe(t *testing.T, dataDir string, args ...string) *serveProc {
	t.Helper()
	p, err := tryServe(dataDir, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

func tryServe(dataDir string, args ...string) (*serveProc, error) {
	cmd := exec.Command(sluiceBin, append([]string{"serve", "--listen", "127.0.0.1:0", "--data-dir", dataDir}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &serveProc{cmd: cmd, done: make(chan error, 1)}
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.logs.WriteString(line + "\n")
			p.mu.Unlock()
			if _, rest, ok := strings.Cut(line, "listening on "); ok {
				// Text logs quote the message, JSON logs end it with a quote.
				urlc <- strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == '"' || r == '\\' })[0]
			}
		}
		close(urlc)
		p.done <- cmd.Wait()
	}()
	select {
	case u, ok := <-urlc:
		if !ok {
			return p, fmt.Errorf("sluice serve exited before listening: %s", p.log())
		}
		p.url = u
		return p, nil
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("sluice serve did not listen within 30s: %s", p.log())
	}
}

func (p *serveProc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs.String()
}

// kill9 SIGKILLs the server and waits for it to be gone.
func (p *serveProc) kill9(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// sqlRemote runs statements through `sluice sql --server` and returns stdout.
func sqlRemote(t *testing.T, url, format, stmt string) (string, error) {
	t.Helper()
	cmd := exec.Command(sluiceBin, "sql", "--server", url, "--format", format, "-e", stmt)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%s: %v: %s", stmt, err, errb.String())
	}
	return out.String(), nil
}

func mustRemote(t *testing.T, url, stmt string) string {
	t.Helper()
	out, err := sqlRemote(t, url, "csv", stmt)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// csvCount reads the one number a `SELECT count(*)` in csv printed.
func csvCount(t *testing.T, out string) int {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	n, err := strconv.Atoi(lines[len(lines)-1])
	if err != nil {
		t.Fatalf("not a count: %q", out)
	}
	return n
}

// writeInputs lands files n0..n1-1 of rows rows each.
func writeInputs(t *testing.T, dir string, n0, n1, rows int) {
	t.Helper()
	for f := n0; f < n1; f++ {
		var b strings.Builder
		for r := 0; r < rows; r++ {
			id := f*rows + r
			fmt.Fprintf(&b, `{"id": %d, "host": "h%d", "bytes": %d}`+"\n", id, id%7, id*3)
		}
		write(t, filepath.Join(dir, fmt.Sprintf("f%04d.json", f)), b.String())
	}
}

// TestServeKill9ResumesExactlyOnce SIGKILLs a server while its stream
// runs, at random moments, restarts it each time, and checks that the
// sink ends up equal to the batch INSERT of the same input: no row lost,
// none twice.
func TestServeKill9ResumesExactlyOnce(t *testing.T) {
	root := t.TempDir()
	in, data := filepath.Join(root, "in"), filepath.Join(root, "data")
	const files, rows = 40, 25
	writeInputs(t, in, 0, files, rows)
	p := startServe(t, data)
	for _, q := range []string{
		"CREATE TABLE src (id BIGINT, host STRING, bytes BIGINT) USING json LOCATION '" + in + "/'",
		"CREATE TABLE sink (id BIGINT, host STRING, bytes BIGINT) USING parquet LOCATION '" + filepath.Join(root, "sink") + "/'",
		"CREATE TABLE batch (id BIGINT, host STRING, bytes BIGINT) USING parquet LOCATION '" + filepath.Join(root, "batch") + "/'",
	} {
		mustRemote(t, p.url, q)
	}
	out, err := sqlRemote(t, p.url, "table", "INSERT STREAM INTO sink SELECT id, host, bytes * 2 AS bytes FROM src WHERE id % 3 <> 1 "+
		"WITH (name = 'feed', trigger = '10 milliseconds', max_files_per_trigger = 1)")
	if err != nil || !strings.Contains(out, "stream feed started") {
		t.Fatalf("INSERT STREAM over --server printed %q (%v)", out, err)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	kills := 0
	var atKill []int
	for kills < 3 {
		time.Sleep(time.Duration(50+rng.IntN(250)) * time.Millisecond)
		atKill = append(atKill, csvCount(t, mustRemote(t, p.url, "SELECT count(*) FROM sink")))
		p.kill9(t)
		kills++
		if kills == 2 {
			writeInputs(t, in, files, files+5, rows) // more lands while it is down
		}
		p = startServe(t, data)
	}
	want := csvCount(t, mustRemote(t, p.url, "INSERT INTO batch SELECT id, host, bytes * 2 AS bytes FROM src WHERE id % 3 <> 1; SELECT count(*) FROM batch"))
	deadline := time.Now().Add(60 * time.Second)
	for {
		n := csvCount(t, mustRemote(t, p.url, "SELECT count(*) FROM sink"))
		if n >= want || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	sorted := func(q string) []string {
		lines := strings.Split(strings.TrimSpace(mustRemote(t, p.url, q)), "\n")[1:]
		sort.Strings(lines)
		return lines
	}
	got, exp := sorted("SELECT id, host, bytes FROM sink"), sorted("SELECT id, host, bytes FROM batch")
	if len(got) != len(exp) {
		t.Fatalf("after %d kills the sink has %d rows, the batch %d", kills, len(got), len(exp))
	}
	for i := range got {
		if got[i] != exp[i] {
			t.Fatalf("row %d: sink %q, batch %q", i, got[i], exp[i])
		}
	}
	if atKill[0] >= len(exp) {
		t.Fatalf("the stream had caught up before the first SIGKILL (%d rows): the test proves nothing", atKill[0])
	}
	t.Logf("%d rows exactly once across %d SIGKILLs (sink rows at each kill: %v)", len(got), kills, atKill)
}

// TestServeSIGTERM: SIGTERM stops the streams at an epoch boundary and
// exits 0; the stream resumes on the next start.
func TestServeSIGTERM(t *testing.T) {
	root := t.TempDir()
	in, data := filepath.Join(root, "in"), filepath.Join(root, "data")
	writeInputs(t, in, 0, 3, 10)
	p := startServe(t, data, "--stop-timeout", "20s", "--max-concurrent-epochs", "1")
	mustRemote(t, p.url, "CREATE TABLE src (id BIGINT, host STRING, bytes BIGINT) USING json LOCATION '"+in+"/'")
	mustRemote(t, p.url, "CREATE TABLE sink (id BIGINT, host STRING) USING json LOCATION '"+filepath.Join(root, "sink")+"/'")
	mustRemote(t, p.url, "INSERT STREAM INTO sink SELECT id, host FROM src WITH (name = 'feed', trigger = '20 milliseconds')")
	waitCount(t, p.url, "sink", 30)

	// A second server on the same data dir refuses to start.
	if q, err := tryServe(data); err == nil {
		_ = q.cmd.Process.Kill()
		t.Fatal("a second sluice serve started on the same data dir")
	} else if !strings.Contains(err.Error(), "data dir is in use by another sluice serve") {
		t.Fatalf("second server: %v", err)
	}

	t0 := time.Now()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("sluice serve after SIGTERM: %v: %s", err, p.log())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("sluice serve did not exit within 30s of SIGTERM: %s", p.log())
	}
	t.Logf("exited 0 %s after SIGTERM", time.Since(t0).Round(time.Millisecond))
	// The run is recorded stopped (it resumes from its commit), not cancelled.
	if st, err := os.ReadFile(filepath.Join(data, "checkpoints", "feed", "status")); err != nil || !strings.Contains(string(st), `"state":"stopped"`) {
		t.Errorf("after SIGTERM the stream recorded %s (%v), want state stopped", st, err)
	}

	writeInputs(t, in, 3, 4, 10)
	p = startServe(t, data)
	if !strings.Contains(p.log(), `msg="resumed stream" stream=feed`) {
		t.Errorf("the restarted server did not say it resumed feed: %s", p.log())
	}
	waitCount(t, p.url, "sink", 40)
	out := mustRemote(t, p.url, "SHOW STREAMS")
	if !strings.Contains(out, "feed,running") {
		t.Fatalf("SHOW STREAMS over --server: %s", out)
	}
}

func waitCount(t *testing.T, url, table string, want int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	n := -1
	for time.Now().Before(deadline) {
		if n = csvCount(t, mustRemote(t, url, "SELECT count(*) FROM "+table)); n == want {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("count(*) of %s: %d, want %d", table, n, want)
}

// TestOpenSearchSQLCLI points the OpenSearch SQL plugin's own CLI
// (PyPI opensearchsql, installed by scripts/opensearchsql.sh) at sluice
// serve and checks the table it prints.
func TestOpenSearchSQLCLI(t *testing.T) {
	cliPath, root, p := cliServer(t)

	run := func(args ...string) string {
		cmd := exec.Command(cliPath, append([]string{p.url}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+root, "TERM=dumb")
		cmd.Stdin = strings.NewReader("")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("opensearchsql %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	out := run("-q", "SELECT host, count(*) AS n, sum(bytes) AS total FROM logs GROUP BY host ORDER BY host LIMIT 3")
	want := []string{
		"fetched rows / total rows = 3/3",
		"| host   | n   | total   |",
		"| h0     | 3   | 63      |",
		"| h1     | 3   | 72      |",
		"| h2     | 3   | 81      |",
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Fatalf("opensearchsql printed:\n%s\nwant a line %q", out, w)
		}
	}
	if out := run("-f", "csv", "-q", "SELECT id, host FROM logs ORDER BY id LIMIT 2"); !strings.Contains(out, "id,host\n0,h0\n1,h1") {
		t.Fatalf("opensearchsql -f csv printed:\n%s", out)
	}
	if out := run("-q", "SELECT nope FROM logs"); !strings.Contains(out, "SemanticCheckException") {
		t.Fatalf("opensearchsql on an error printed:\n%s", out)
	}
	// PPL answers in the plugin's PPL shape (no status, PPL type names).
	// The CLI's -q mode always sends SQL, so its PPL mode's own
	// connection and formatter (what -l ppl uses) are driven from its
	// Python.
	py := filepath.Join(filepath.Dir(cliPath), "python")
	script := `import sys
from opensearch_sql_cli.opensearch_connection import OpenSearchConnection
from opensearch_sql_cli.formatter import Formatter
from opensearch_sql_cli.utils import OutputSettings
c = OpenSearchConnection(sys.argv[1], query_language="ppl")
c.set_connection()
data = c.execute_query("source=logs | stats count() as n by host | sort host", use_console=False)
print("\n".join(Formatter(OutputSettings(table_format="psql", is_vertical=False)).format_output(data)))
`
	pyOut, err := exec.Command(py, "-c", script, p.url).CombinedOutput()
	if err != nil || !strings.Contains(string(pyOut), "fetched rows / total rows = 7/7") || !strings.Contains(string(pyOut), "| 3   | h1     |") {
		t.Fatalf("opensearchsql's PPL mode: %v:\n%s", err, pyOut)
	}
}

// cliServer is what the tests of the opensearchsql CLI run against: the
// CLI's path (the test fails under CI=true without it, else skips), a
// temp root for its HOME, and a sluice serve with a table logs of 20
// rows (id, host h0..h6, bytes).
func cliServer(t *testing.T) (cliPath, root string, p *serveProc) {
	t.Helper()
	cliPath, err := installOpenSearchSQL()
	if err != nil {
		integration.Unavailable(t, "OPENSEARCHSQL CLI UNAVAILABLE: %v", err)
	}
	root = t.TempDir()
	in := filepath.Join(root, "in")
	writeInputs(t, in, 0, 2, 10)
	p = startServe(t, filepath.Join(root, "data"))
	mustRemote(t, p.url, "CREATE TABLE logs (id BIGINT, host STRING, bytes BIGINT) USING json LOCATION '"+in+"/'")
	return cliPath, root, p
}

// installOpenSearchSQL runs scripts/opensearchsql.sh install (a no-op
// once installed; scripts/test.sh installs it before the tests) and
// returns the CLI's path.
func installOpenSearchSQL() (string, error) {
	return integration.RunScript("opensearchsql.sh", "install")
}
