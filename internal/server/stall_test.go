package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStalledClientDoesNotStallStreams: a client that stops reading in
// the middle of a large response holds only its own connection. The
// stream keeps committing epochs, other requests are answered, and the
// stalled connection is cut after the write timeout.
func TestStalledClientDoesNotStallStreams(t *testing.T) {
	dir := t.TempDir()
	note := strings.Repeat("x", 300)
	var b strings.Builder
	const bigRows = 60000
	for i := 0; i < bigRows; i++ {
		fmt.Fprintf(&b, `{"id": %d, "note": "%s"}`+"\n", i, note)
	}
	writeFile(t, filepath.Join(dir, "big", "part0.json"), b.String())
	full := b.Len() // the csv response is about as large
	writeFile(t, filepath.Join(dir, "src", "f0.json"), `{"id": 0}`+"\n")

	srv, err := Open(Options{DataDir: filepath.Join(dir, "data"), Logf: t.Logf, MaxConcurrentEpochs: 1,
		Limits: Limits{WriteTimeout: time.Second, MaxRows: bigRows}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(10 * time.Second) })
	addr := serveReal(t, srv)
	base := "http://" + addr
	run := func(q string) string {
		t.Helper()
		raw, _ := json.Marshal(map[string]string{"query": q})
		resp, err := http.Post(base+"/_plugins/_sql?format=csv", "application/json", strings.NewReader(string(raw)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", q, resp.StatusCode, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("CREATE TABLE big (id BIGINT, note STRING) USING json LOCATION '" + filepath.Join(dir, "big") + "/'")
	run("CREATE TABLE src (id BIGINT) USING json LOCATION '" + filepath.Join(dir, "src") + "/'")
	run("CREATE TABLE out (id BIGINT) USING json LOCATION '" + filepath.Join(dir, "out") + "/'")
	run("INSERT STREAM INTO out SELECT id FROM src WITH (name = 'feed', trigger = '20 milliseconds')")
	count := func() string { return strings.TrimPrefix(run("SELECT count(*) AS n FROM out"), "n\n") }
	waitFor := func(want string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for count() != want {
			if time.Now().After(deadline) {
				t.Fatalf("the sink has %s rows, want %s", count(), want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor("1")

	// The stalled client: a tiny receive buffer, reads the first bytes
	// of the response, then nothing.
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"query": "SELECT id, note FROM big"}`
	fmt.Fprintf(conn, "POST /_plugins/_sql?format=csv HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
	rd := bufio.NewReaderSize(conn, 1024)
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	status, err := rd.ReadString('\n')
	if err != nil || !strings.Contains(status, "200") {
		t.Fatalf("stalled request: %q %v", status, err)
	}
	stalledAt := time.Now()

	// While it stalls, the stream commits more epochs and others are served.
	for i := 1; i <= 3; i++ {
		writeFile(t, filepath.Join(dir, "src", fmt.Sprintf("f%d.json", i)), fmt.Sprintf(`{"id": %d}`+"\n", i))
		waitFor(fmt.Sprint(i + 1))
	}
	if time.Since(stalledAt) > 5*time.Second {
		t.Errorf("three epochs took %s while a client stalled", time.Since(stalledAt))
	}

	// The server gives up on the stalled client after its write timeout:
	// what is left to read is what the kernel had buffered, then EOF.
	time.Sleep(1500 * time.Millisecond)
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	n, err := io.Copy(io.Discard, rd)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the stalled connection is still open after the write timeout (read %d bytes)", n)
	}
	if n >= int64(full)/2 {
		t.Fatalf("the stalled client could still read %d of about %d bytes: the server did not cut it off", n, full)
	}
	t.Logf("stalled client cut off after %d of about %d bytes", n, full)
}
