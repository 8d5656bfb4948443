package faultproxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestFaults(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789"), 10000)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Check-Host") != "" && r.Host != r.Header.Get("X-Check-Host") {
			http.Error(w, "host changed to "+r.Host, http.StatusBadRequest)
			return
		}
		w.Write(body)
	}))
	defer up.Close()

	cases := []struct {
		name          string
		cfg           Config
		want503, cuts bool
	}{
		{"clean", Config{}, false, false},
		{"all slowdown", Config{SlowDownRate: 1}, true, false},
		{"all reset", Config{ResetRate: 1, Seed: 7}, false, true},
		{"latency", Config{Latency: 20 * time.Millisecond}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Start(up.URL, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			req, _ := http.NewRequest("GET", p.URL+"/x", nil)
			req.Header.Set("X-Check-Host", strings.TrimPrefix(p.URL, "http://"))
			start := time.Now()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			switch {
			case c.want503:
				if resp.StatusCode != 503 || !bytes.Contains(got, []byte("<Code>SlowDown</Code>")) {
					t.Fatalf("status %d body %q", resp.StatusCode, got)
				}
			case c.cuts:
				if rerr == nil || len(got) == 0 || len(got) >= len(body) || !bytes.Equal(got, body[:len(got)]) {
					t.Fatalf("cut body: %d bytes, err %v", len(got), rerr)
				}
			default:
				if rerr != nil || resp.StatusCode != 200 || !bytes.Equal(got, body) {
					t.Fatalf("status %d, %d bytes, err %v: %s", resp.StatusCode, len(got), rerr, got[:min(len(got), 100)])
				}
			}
			if d := time.Since(start); d < c.cfg.Latency {
				t.Fatalf("took %v, want latency >= %v", d, c.cfg.Latency)
			}
			if n, _, _ := p.Stats(); n != 1 {
				t.Fatalf("requests = %d", n)
			}
		})
	}
}

func TestCounts(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 1000)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Write(body)
		}
	}))
	defer up.Close()
	p, err := Start(up.URL, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	do := func(method, path string, hdr map[string]string) {
		req, _ := http.NewRequest(method, p.URL+path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	do("GET", "/bucket/?list-type=2", nil)
	do("GET", "/bucket/a.json", nil)
	do("GET", "/bucket/a.json", map[string]string{"Range": "bytes=0-9"})
	do("PUT", "/bucket/big?partNumber=1&uploadId=u", nil)
	do("HEAD", "/bucket/a.json", nil)
	c := p.Counts()
	if c.ByMethod["GET"] != 3 || c.ByMethod["PUT"] != 1 || c.ByMethod["HEAD"] != 1 {
		t.Errorf("by method %v", c.ByMethod)
	}
	if c.ObjectGets != 2 || c.RangedGets != 1 || c.MultipartParts != 1 {
		t.Errorf("counts %+v", c)
	}
	if c.BodyBytes != 3000 {
		t.Errorf("body bytes %d, want 3000", c.BodyBytes)
	}
	p.ResetCounts()
	if c := p.Counts(); c.BodyBytes != 0 || len(c.ByMethod) != 0 {
		t.Errorf("after reset %+v", c)
	}
}
