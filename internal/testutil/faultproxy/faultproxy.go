// Package faultproxy is a loopback HTTP reverse proxy that misbehaves on
// purpose, for testing clients against flaky object stores: it answers a
// fraction of requests with 503 SlowDown, cuts a fraction of response
// bodies off mid-stream with a TCP reset, and adds latency.
//
//	p, _ := faultproxy.Start(srv.Endpoint, faultproxy.Config{
//		SlowDownRate: 0.2, ResetRate: 0.3, Latency: time.Millisecond, Seed: 1,
//	})
//	defer p.Close()
//	// point the client at p.URL instead of srv.Endpoint
//
// The Host header is passed through unchanged, so SigV4 signatures made
// for the proxy's address still verify upstream.
package faultproxy

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config says how often and how the proxy misbehaves. Rates are
// fractions in [0, 1].
type Config struct {
	// SlowDownRate: answer 503 SlowDown without forwarding.
	SlowDownRate float64
	// ResetRate: for responses with a body of at least 2 bytes, send a
	// random part of it (at least one byte, never all) and then reset the
	// connection. Such responses are buffered whole in the proxy first.
	ResetRate float64
	// Latency is added before each request is handled.
	Latency time.Duration
	// Seed makes the sequence of decisions repeatable (for a given
	// request order).
	Seed uint64
}

// Proxy is a running fault-injecting proxy.
type Proxy struct {
	// URL is the proxy's base URL, "http://127.0.0.1:PORT".
	URL string

	target *url.URL
	ln     net.Listener
	srv    *http.Server
	client *http.Client

	mu  sync.Mutex
	cfg Config
	rng *rand.Rand

	requests, slowDowns, resets atomic.Int64
	// counts is what Counts reports; guarded by mu.
	counts Counts
}

// Counts tallies the traffic that went through the proxy, so tests can
// assert how much a client asked for (partition pruning, ranged reads,
// multipart uploads), not just that the answer was right.
type Counts struct {
	// ByMethod counts requests by HTTP method (GET, HEAD, PUT, ...),
	// including those answered 503 SlowDown.
	ByMethod map[string]int64
	// ObjectGets counts GETs of objects (a path with a key), not listings.
	ObjectGets int64
	// RangedGets counts object GETs with a Range header.
	RangedGets int64
	// BodyBytes is the response body bytes sent to the client.
	BodyBytes int64
	// MultipartParts counts PUTs with a partNumber (UploadPart).
	MultipartParts int64
}

// Start listens on a free loopback port and forwards to target (a base
// URL such as "http://127.0.0.1:7070").
func Start(target string, cfg Config) (*Proxy, error) {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("faultproxy: bad target %q", target)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("faultproxy: %w", err)
	}
	p := &Proxy{
		URL:    "http://" + ln.Addr().String(),
		target: u,
		ln:     ln,
		client: &http.Client{
			Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true},
			// Redirects belong to the client under test, not to us.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
	p.SetConfig(cfg)
	p.srv = &http.Server{Handler: http.HandlerFunc(p.serve)}
	go p.srv.Serve(ln)
	return p, nil
}

// SetConfig changes the behaviour from the next request on and reseeds.
func (p *Proxy) SetConfig(cfg Config) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg = cfg
	p.rng = rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
}

// Stats returns how many requests were seen, answered 503, and reset.
func (p *Proxy) Stats() (requests, slowDowns, resets int64) {
	return p.requests.Load(), p.slowDowns.Load(), p.resets.Load()
}

// Counts returns a copy of the traffic tallies since Start or the last
// ResetCounts.
func (p *Proxy) Counts() Counts {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.counts
	c.ByMethod = make(map[string]int64, len(p.counts.ByMethod))
	for k, v := range p.counts.ByMethod {
		c.ByMethod[k] = v
	}
	return c
}

// ResetCounts zeroes the tallies Counts reports.
func (p *Proxy) ResetCounts() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.counts = Counts{}
}

// count records one request's shape; body bytes are added as sent.
func (p *Proxy) count(r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.counts.ByMethod == nil {
		p.counts.ByMethod = map[string]int64{}
	}
	p.counts.ByMethod[r.Method]++
	// Path style: /bucket/key; a listing is /bucket or /bucket/.
	_, key, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	q := r.URL.Query()
	switch {
	case r.Method == http.MethodGet && key != "" && !q.Has("uploadId"):
		p.counts.ObjectGets++
		if r.Header.Get("Range") != "" {
			p.counts.RangedGets++
		}
	case r.Method == http.MethodPut && q.Has("partNumber"):
		p.counts.MultipartParts++
	}
}

func (p *Proxy) addBytes(n int64) {
	p.mu.Lock()
	p.counts.BodyBytes += n
	p.mu.Unlock()
}

// countingWriter tallies the body bytes written to the client.
type countingWriter struct {
	p *Proxy
	w io.Writer
}

func (c countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.p.addBytes(int64(n))
	return n, err
}

// Close stops the proxy and drops open connections.
func (p *Proxy) Close() error {
	return p.srv.Close()
}

// decide draws this request's fate under the lock, so concurrent
// requests share one repeatable random sequence.
func (p *Proxy) decide() (latency time.Duration, slowDown bool, resetFrac float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	slowDown = p.rng.Float64() < p.cfg.SlowDownRate
	resetFrac = -1
	if p.rng.Float64() < p.cfg.ResetRate {
		resetFrac = p.rng.Float64()
	}
	return p.cfg.Latency, slowDown, resetFrac
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	p.requests.Add(1)
	p.count(r)
	latency, slowDown, resetFrac := p.decide()
	if latency > 0 {
		time.Sleep(latency)
	}
	if slowDown {
		p.slowDowns.Add(1)
		// Drain what the client sent so it sees our answer, not a reset.
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/xml")
		w.Header().Set("Connection", "close")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>`+
			`<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message>`+
			`<RequestId>faultproxy</RequestId></Error>`)
		return
	}

	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.URL.Scheme = p.target.Scheme
	out.URL.Host = p.target.Host
	out.Host = r.Host // keep the signed Host
	if r.ContentLength == 0 {
		out.Body = nil
	}
	resp, err := p.client.Do(out)
	if err != nil {
		http.Error(w, "faultproxy: upstream: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if resetFrac >= 0 && r.Method != http.MethodHead {
		// Buffer the body to know its length even when it is chunked.
		data, err := io.ReadAll(resp.Body)
		w.WriteHeader(resp.StatusCode)
		if err != nil || len(data) < 2 {
			n, _ := w.Write(data)
			p.addBytes(int64(n))
			return
		}
		cut := 1 + int(resetFrac*float64(len(data)-1))
		if cut >= len(data) {
			cut = len(data) - 1
		}
		n, _ := w.Write(data[:cut])
		p.addBytes(int64(n))
		p.resets.Add(1)
		p.reset(w)
		return
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(countingWriter{p: p, w: w}, resp.Body)
}

// reset flushes what was written and closes the connection with an RST
// (linger 0), which is what a dropped connection looks like to a client.
func (p *Proxy) reset(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		return // not HTTP/1 (cannot happen: we serve plain HTTP/1)
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	buf.Flush()
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}
