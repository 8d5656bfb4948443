package crashtest

import (
	"bufio"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWorkersStop: STOP STREAM sent to one `sluice serve` running one of
// three workers (the others are `sluice sql` processes with catalogs of
// their own) stops all three: each finishes its epoch, acknowledges,
// and exits by itself (status 0, "stopped"), no message stays
// unacknowledged, and the sink equals a batch INSERT over what was read.
// A worker started again afterwards is not stopped by the old request.
func TestWorkersStop(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS and an S3 server")
	}
	ns, srv := needNotify(t)
	dir := t.TempDir()
	bin := buildSluice(t, dir)
	bucket := newBucket(t, srv, "wstop")
	up := &inputUploader{srv: srv, bucket: bucket, dir: filepath.Join(dir, "in"), rows: 500}
	upload := func(n int) { up.upload(t, n) }
	upload(6)
	cp := filepath.Join(dir, "cp")
	session := s3Session(srv)
	tables := passThroughTables(bucket, dir)
	consumer := bucket
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, consumer)
	stmt := "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 " +
		"WITH (name = 'feed', trigger = '200 milliseconds', workers = 3, " +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + cp + "')"
	f := newFleet(t, bin, dir, sqlScript(session, tables, []string{stmt}))
	start := f.start
	ws := []*worker{start(), start()}

	// The third worker runs in `sluice serve`; STOP STREAM goes to it.
	remote := serveProcess(t, bin, filepath.Join(dir, "served"))
	// One client, one session: the stream takes the session's SET
	// s3.* settings with it (another request's session would not have them).
	remote(script(append(append(append([]string{}, session...), tables...), stmt)...)) // in the background of the server

	s := &scenario{dataDir: filepath.Join(dir, "check"), session: session}
	s.exec(t, tables...)
	count := func(q string) int {
		n, _ := strconv.Atoi(s.rows(t, q)[0])
		return n
	}
	upload(6)
	// Every worker holds a slot (so all three run) and rows arrive.
	for deadline := time.Now().Add(40 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		locked := 0
		for i := 0; i < 3; i++ {
			if lockPID(filepath.Join(cp, "workers", strconv.Itoa(i))) != 0 {
				locked++
			}
		}
		if locked == 3 && count("SELECT count(*) FROM out") > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the three workers did not all start: %d rows", count("SELECT count(*) FROM out"))
		}
	}
	upload(6) // some land while the stop goes out
	t0 := time.Now()
	msg := remote("STOP STREAM feed")
	if !strings.Contains(msg, "through its queue and the stop marker") {
		t.Errorf("STOP STREAM answered %q, want it to say the queue carried the stop", msg)
	}
	for i, w := range ws {
		select {
		case err := <-w.exited:
			if err != nil {
				t.Fatalf("worker %d exited with %v: %s", i, err, w.stderr.String())
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("worker %d did not stop within 20s of STOP STREAM: %s", i, w.stderr.String())
		}
	}
	took := time.Since(t0)
	if desc := remote("DESCRIBE STREAM feed"); !strings.Contains(desc, "state,success") && !strings.Contains(desc, "state,stopped") {
		t.Errorf("DESCRIBE STREAM in the server after STOP: %s", desc)
	}
	pending, unacked, err := ns.Consumer("s3events", consumer)
	if err != nil {
		t.Fatal(err)
	}
	if unacked != 0 {
		t.Errorf("%d messages left unacknowledged by workers that stopped cleanly", unacked)
	}
	t.Logf("all workers stopped %s after STOP STREAM; %d events still pending", took, pending)

	// An old request does not stop a worker started later: it reads the
	// rest, and the sink then equals the batch over every object.
	ws = append(ws, start())
	want := count("SELECT count(*) FROM src WHERE status < 500")
	for deadline := time.Now().Add(40 * time.Second); count("SELECT count(*) FROM out") < want; time.Sleep(200 * time.Millisecond) {
		select {
		case err := <-ws[2].exited:
			t.Fatalf("a worker started after the stop exited (%v): %s", err, ws[2].stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("sink has %d rows, want %d", count("SELECT count(*) FROM out"), want)
		}
	}
	time.Sleep(1200 * time.Millisecond)
	s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
	s.compare(t, up.files*500*3/5)
}

// script is statements as one -e script: one `sluice sql --server` run,
// so one session on the server.
func script(stmts ...string) string { return strings.Join(stmts, ";\n") }

// serveProcess starts `sluice serve` on a free port over dataDir (killed
// at the test's end) and returns a func running one statement in it
// through `sluice sql --server`, answering its CSV output.
func serveProcess(t *testing.T, bin, dataDir string, args ...string) func(q string) string {
	t.Helper()
	remote, _ := serveProcessURL(t, bin, dataDir, args...)
	return remote
}

// serveProcessURL is serveProcess that also returns the server's URL.
func serveProcessURL(t *testing.T, bin, dataDir string, args ...string) (func(q string) string, string) {
	t.Helper()
	serve := exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0", "--data-dir", dataDir}, args...)...)
	stderr, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "listening on "); ok {
				urlc <- strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == '"' || r == '\\' })[0]
			}
		}
	}()
	var url string
	select {
	case url = <-urlc:
	case <-time.After(30 * time.Second):
		t.Fatal("sluice serve did not listen")
	}
	return func(q string) string {
		t.Helper()
		out, err := exec.Command(bin, "sql", "--server", url, "--format", "csv", "-e", q).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v: %s", q, err, out)
		}
		return string(out)
	}, url
}
