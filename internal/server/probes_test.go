package server

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sluice/internal/job"
	"sluice/internal/testutil/natsserver"
)

// TestProbes: /healthz and /readyz answer without credentials and for any
// Host, telling only the status; /_cluster/health needs the API's
// credentials and answers in OpenSearch's shape; a stream recorded as
// running that failed makes the server not ready (503, red).
func TestProbes(t *testing.T) {
	f := newAuthFixture(t, nil)
	probe := func(path string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, f.url+path, nil)
		req.Host = "rebound.example"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 512)
		n, _ := resp.Body.Read(buf)
		b.Write(buf[:n])
		return resp.StatusCode, strings.TrimSpace(b.String())
	}
	health := func(user, pw string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, f.url+"/_cluster/health", nil)
		if user != "" {
			req.SetBasicAuth(user, pw)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	if code, body := probe("/healthz"); code != 200 || body != "ok" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	if code, body := probe("/readyz"); code != 200 || body != "ok" {
		t.Errorf("/readyz: %d %q", code, body)
	}
	if code, _ := health("", ""); code != http.StatusUnauthorized {
		t.Errorf("/_cluster/health without credentials: %d, want 401", code)
	}
	if code, m := health("bob", "bob-pw"); code != 200 || m["status"] != "green" || m["number_of_nodes"] != 1.0 {
		t.Errorf("/_cluster/health: %d %v", code, m)
	}

	ctx := context.Background()
	in := filepath.Join(f.dir, "in")
	for _, q := range []string{
		"CREATE TABLE src (id BIGINT, name STRING) USING json LOCATION '" + in + "/' OPTIONS (mode 'FAILFAST')",
		"CREATE TABLE dst (x BIGINT) USING json LOCATION '" + filepath.Join(f.dir, "dst") + "/'",
		"INSERT STREAM INTO dst SELECT id DIV (id - id) AS x FROM src WITH (name = 'bad', trigger = '1 second')",
	} {
		if _, err := f.srv.Engine().Execute(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		code, body := probe("/readyz")
		if code == http.StatusServiceUnavailable {
			if body != "not ready: 1 of the streams recorded as running failed" {
				t.Errorf("/readyz body %q", body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d %q with a failed stream", code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code, body := probe("/healthz"); code != 200 || body != "ok" {
		t.Errorf("/healthz with a failed stream: %d %q", code, body)
	}
	if _, m := health("alice", "alice-pw"); m["status"] != "red" {
		t.Errorf("/_cluster/health with a failed stream: %v", m)
	}
}

// TestReadyWhileRetrying: a stream recorded as running whose queue went
// away is retrying, not failed, so the server stays ready (a supervisor
// restarting it would not bring the broker back).
func TestReadyWhileRetrying(t *testing.T) {
	f := newAuthFixture(t, nil)
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("events", "s3.>"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	in := filepath.Join(f.dir, "in")
	for _, q := range []string{
		"CREATE TABLE nsrc (id BIGINT) USING json LOCATION '" + in + "/' OPTIONS (discovery 'notifications', queue '" + ns.URL + "/events/sluice')",
		"CREATE TABLE ndst (id BIGINT) USING json LOCATION '" + filepath.Join(f.dir, "ndst") + "/'",
		"INSERT STREAM INTO ndst SELECT id FROM nsrc WITH (name = 'unreachable', trigger = '1 second')",
	} {
		if _, err := f.srv.Engine().Execute(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	time.Sleep(1500 * time.Millisecond) // an epoch or so against the live broker
	ns.Stop()
	deadline := time.Now().Add(30 * time.Second)
	for {
		infos, err := f.srv.Engine().Streams(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(infos) == 1 && infos[0].Status.State == job.StateRetrying {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream never retried: %+v", infos)
		}
		time.Sleep(100 * time.Millisecond)
	}
	req, _ := http.NewRequest(http.MethodGet, f.url+"/readyz", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("/readyz with a retrying stream: %d, want 200", resp.StatusCode)
	}
}
