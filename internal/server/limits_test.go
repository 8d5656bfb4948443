package server

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sluice/internal/cli"
	"sluice/internal/sql"
)

func TestBodyLimit(t *testing.T) {
	f := newFixtureWith(t, 1, func(o *Options) { o.Limits.MaxBody = 1024 })
	big := "SELECT 1 AS x" + strings.Repeat(" ", 2048)
	body := f.post("/_plugins/_sql", map[string]any{"query": big}, http.StatusRequestEntityTooLarge)
	if !strings.Contains(string(body), "--max-body") {
		t.Errorf("413 body: %s", body)
	}
	// Without a Content-Length (chunked), the limit cuts the read.
	raw, _ := json.Marshal(map[string]any{"query": big})
	req, _ := http.NewRequest(http.MethodPost, f.http.URL+"/api/v1/statement", io.MultiReader(bytes.NewReader(raw)))
	req.ContentLength = -1
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked oversized body: %d", resp.StatusCode)
	}
	f.post("/_plugins/_sql", map[string]any{"query": "SELECT 1 AS x"}, 200)
}

func TestMaxRows(t *testing.T) {
	f := newFixtureWith(t, 10, func(o *Options) { o.Limits.MaxRows = 3 })
	r := f.sql(200, "SELECT id FROM t ORDER BY id")
	if r.Total != 10 || r.Size != 3 || r.Cursor == "" {
		t.Fatalf("10 rows without fetch_size under max-rows 3: total %d size %d cursor %q", r.Total, r.Size, r.Cursor)
	}
	n := r.Size
	for r.Cursor != "" {
		cur := r.Cursor
		r = jdbcReply{}
		_ = json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"cursor": cur}, 200), &r)
		n += len(r.Datarows)
	}
	if n != 10 {
		t.Errorf("paged %d rows, want 10", n)
	}
	var r2 jdbcReply
	_ = json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"query": "SELECT id FROM t", "fetch_size": 5}, 200), &r2)
	if r2.Size != 3 {
		t.Errorf("fetch_size 5 over max-rows 3: size %d", r2.Size)
	}
	if out := f.post("/_plugins/_sql?format=csv", map[string]any{"query": "SELECT id FROM t"}, 400); !strings.Contains(string(out), "--max-rows") {
		t.Errorf("csv over max-rows: %s", out)
	}
	f.post("/_plugins/_sql?format=csv", map[string]any{"query": "SELECT id FROM t LIMIT 3"}, 200)

	// /api/v1/statement pages too, and cli.Remote puts the pages together.
	var first StatementResponse
	_ = json.Unmarshal(f.post("/api/v1/statement", map[string]any{"query": "SELECT id FROM t"}, 200), &first)
	if first.Cursor == "" {
		t.Fatalf("/api/v1/statement over max-rows has no cursor")
	}
	st, _ := sql.ParseOne("SELECT id FROM t ORDER BY id")
	res, err := (&cli.Remote{URL: f.http.URL}).ExecuteStatement(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := cli.WriteResult(&b, cli.CSV{}, res); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Fields(b.String()), strings.Fields("id 0 1 2 3 4 5 6 7 8 9"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cli.Remote over pages: %q", b.String())
	}
}

func TestQueryTimeout(t *testing.T) {
	f := newFixtureWith(t, 100, func(o *Options) { o.Limits.QueryTimeout = time.Nanosecond })
	out := f.post("/_plugins/_sql", map[string]any{"query": "SELECT count(*) FROM t"}, http.StatusGatewayTimeout)
	if !strings.Contains(string(out), "--query-timeout") {
		t.Errorf("504 body: %s", out)
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key, made now.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sluice test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	writeFile(t, certFile, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})))
	writeFile(t, keyFile, string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})))
	return certFile, keyFile
}

// serveReal runs srv.Serve on a loopback port until the test ends.
func serveReal(t *testing.T, srv *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return ln.Addr().String()
}

func TestTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	srv, err := Open(Options{DataDir: filepath.Join(dir, "data"), Logf: t.Logf, Security: Security{TLSCert: cert, TLSKey: key}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(5 * time.Second) })
	addr := serveReal(t, srv)
	st, _ := sql.ParseOne("SELECT 1 AS one")

	client, err := cli.TLSClient(cert)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&cli.Remote{URL: "https://" + addr, Client: client}).ExecuteStatement(context.Background(), st); err != nil {
		t.Fatalf("https with --ca-cert: %v", err)
	}
	// Without trusting the certificate the handshake fails.
	if _, err := (&cli.Remote{URL: "https://" + addr}).ExecuteStatement(context.Background(), st); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("https without --ca-cert: %v", err)
	}
	// Plain HTTP gets no answer of the API.
	resp, err := http.Post("http://"+addr+"/api/v1/statement", "application/json", strings.NewReader(`{"query": "SELECT 1"}`))
	if err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Fatalf("plain http to the TLS port answered 200: %s", body)
		}
	}
}

func TestTLSNeedsBothFiles(t *testing.T) {
	dir := t.TempDir()
	cert, _ := selfSigned(t, dir)
	srv, err := Open(Options{DataDir: filepath.Join(dir, "data"), Logf: t.Logf, Security: Security{TLSCert: cert}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close(time.Second)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(context.Background(), ln); err == nil || !strings.Contains(err.Error(), "--tls-key") {
		t.Fatalf("Serve with a certificate and no key: %v", err)
	}
}
