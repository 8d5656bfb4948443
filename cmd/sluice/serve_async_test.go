package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// asyncCall sends one request to the async query API and decodes the reply.
func asyncCall(t *testing.T, method, url string, body any, status int) map[string]any {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("%s %s: %d, want %d: %s", method, url, resp.StatusCode, status, raw)
	}
	out := map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, url, err, raw)
		}
	}
	return out
}

func asyncStatus(t *testing.T, p *serveProc, id string) string {
	t.Helper()
	r := asyncCall(t, "GET", p.url+"/_plugins/_async_query/"+id, nil, 200)
	s, _ := r["status"].(string)
	return s
}

// TestServeAsyncStreamKill9: a stream submitted through the async query
// API survives kill -9 mid-stream: after each restart the server resumes
// it and the query reads RUNNING again; the sink ends up holding every
// row exactly once; DELETE stops it (CANCELLED), and it stays stopped and
// CANCELLED across one more restart. The server logs JSON.
func TestServeAsyncStreamKill9(t *testing.T) {
	root := t.TempDir()
	in, data := filepath.Join(root, "in"), filepath.Join(root, "data")
	const files, rows = 40, 40
	writeInputs(t, in, 0, files, rows)
	p := startServe(t, data, "--log-format", "json")
	mustRemote(t, p.url, "CREATE TABLE src (id BIGINT, host STRING, bytes BIGINT) USING json LOCATION '"+in+"/'")
	mustRemote(t, p.url, "CREATE TABLE sink (id BIGINT, host STRING, bytes BIGINT) USING parquet LOCATION '"+filepath.Join(root, "sink")+"/'")
	sub := asyncCall(t, "POST", p.url+"/_plugins/_async_query", map[string]string{"datasource": "sluice", "lang": "sql",
		"query": "INSERT STREAM INTO sink SELECT id, host, bytes FROM src WITH (name = 'feed', trigger = '20 milliseconds', max_files_per_trigger = 1)"}, 201)
	id, _ := sub["queryId"].(string)
	if id == "" || sub["sessionId"] == "" {
		t.Fatalf("submission answered %v", sub)
	}
	waitStatus := func(want string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		got := ""
		for time.Now().Before(deadline) {
			if got = asyncStatus(t, p, id); got == want {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("query %s is %s, want %s: %s", id, got, want, p.log())
	}
	waitStatus("RUNNING")
	if !strings.Contains(p.log(), `"msg":"epoch committed"`) && !strings.Contains(p.log(), `"level":"INFO"`) {
		t.Fatalf("the server does not log JSON: %s", p.log())
	}

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	var atKill []int
	for kill := 0; kill < 2; kill++ {
		time.Sleep(time.Duration(80+rng.IntN(200)) * time.Millisecond)
		atKill = append(atKill, csvCount(t, mustRemote(t, p.url, "SELECT count(*) FROM sink")))
		p.kill9(t)
		p = startServe(t, data, "--log-format", "json")
		waitStatus("RUNNING") // resumed, so RUNNING again
	}
	if atKill[0] >= files*rows {
		t.Fatalf("the stream had caught up before the first SIGKILL (%d rows): the test proves nothing", atKill[0])
	}
	deadline := time.Now().Add(60 * time.Second)
	for csvCount(t, mustRemote(t, p.url, "SELECT count(*) FROM sink")) < files*rows && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	lines := strings.Split(strings.TrimSpace(mustRemote(t, p.url, "SELECT id FROM sink")), "\n")[1:]
	sort.Strings(lines)
	if len(lines) != files*rows {
		t.Fatalf("the sink has %d rows, want %d", len(lines), files*rows)
	}
	for i := 1; i < len(lines); i++ {
		if lines[i] == lines[i-1] {
			t.Fatalf("id %s twice in the sink", lines[i])
		}
	}
	if s := asyncStatus(t, p, id); s != "RUNNING" {
		t.Fatalf("a caught-up stream's query is %s, want RUNNING", s)
	}
	resp, err := http.Get(p.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(metrics), `sluice_stream_running{kind="stream",stream="feed"} 1`) {
		t.Fatalf("no stream metrics: %.2000s", metrics)
	}

	asyncCall(t, "DELETE", p.url+"/_plugins/_async_query/"+id, nil, 204)
	if s := asyncStatus(t, p, id); s != "CANCELLED" {
		t.Fatalf("after DELETE the query is %s", s)
	}
	p.kill9(t)
	writeInputs(t, in, files, files+1, rows)
	p = startServe(t, data)
	time.Sleep(300 * time.Millisecond)
	if s := asyncStatus(t, p, id); s != "CANCELLED" {
		t.Fatalf("after a restart the cancelled query is %s", s)
	}
	if n := csvCount(t, mustRemote(t, p.url, "SELECT count(*) FROM sink")); n != files*rows {
		t.Fatalf("a cancelled stream resumed: %d rows", n)
	}
	t.Logf("%d rows exactly once across 2 SIGKILLs (sink rows at each kill: %v)", len(lines), atKill)
}
