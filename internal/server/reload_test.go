package server

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// reloadFixture is a server over HTTPS on a real listener with a users
// file, a certificate the test rotates and settings a reload reads
// from next.
type reloadFixture struct {
	t                     *testing.T
	dir, users, cert, key string
	srv                   *Server
	url                   string
	client                *http.Client
	level                 *slog.LevelVar
	hup                   chan os.Signal
	mu                    sync.Mutex
	next                  Reloadable
	restart               []string
}

func newReloadFixture(t *testing.T) *reloadFixture {
	t.Helper()
	dir := t.TempDir()
	f := &reloadFixture{t: t, dir: dir, users: filepath.Join(dir, "users"), cert: filepath.Join(dir, "cert.pem"),
		key: filepath.Join(dir, "key.pem"), level: new(slog.LevelVar), hup: make(chan os.Signal, 1)}
	f.writeUsers("alice", "bob")
	writeCert(t, f.cert, f.key, 1)
	var rows strings.Builder
	for i := 0; i < 7; i++ {
		fmt.Fprintf(&rows, `{"id": %d}`+"\n", i)
	}
	writeFile(t, filepath.Join(dir, "in", "part0.json"), rows.String())
	f.next = Reloadable{Users: f.users, TLSCert: f.cert, TLSKey: f.key, LogLevel: "info"}
	o := Options{DataDir: filepath.Join(dir, "data"), Logf: t.Logf, LogLevel: f.level,
		Security: Security{Users: f.users, TLSCert: f.cert, TLSKey: f.key, AuditLog: filepath.Join(dir, "audit.log")},
		Reconfigure: func() (Reloadable, []string, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.next, f.restart, nil
		}}
	srv, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	go srv.ReloadOn(ctx, f.hup)
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		if err := srv.Close(10 * time.Second); err != nil {
			t.Error(err)
		}
	})
	f.url = "https://" + ln.Addr().String()
	// The test's certificates are self-signed and rotated: trust any.
	f.client = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	f.do(200, "alice", "/_plugins/_sql", map[string]any{"query": "CREATE TABLE t (id BIGINT) USING json LOCATION '" + filepath.Join(dir, "in") + "/'"})
	return f
}

// writeUsers writes the users file with these users, each with password
// "<name>-pw", alice admin and the others read.
func (f *reloadFixture) writeUsers(names ...string) {
	f.t.Helper()
	u := &Users{}
	for _, n := range names {
		role := RoleRead
		if n == "alice" {
			role = RoleAdmin
		}
		if err := u.SetPassword(n, n+"-pw", role, bcrypt.MinCost); err != nil {
			f.t.Fatal(err)
		}
	}
	if err := u.Save(f.users); err != nil {
		f.t.Fatal(err)
	}
}

// do posts body to path as user and checks the status.
func (f *reloadFixture) do(status int, user, path string, body any) []byte {
	f.t.Helper()
	out, code, err := f.try(user, path, body)
	if err != nil {
		f.t.Fatal(err)
	}
	if code != status {
		f.t.Fatalf("POST %s as %s: status %d, want %d: %s", path, user, code, status, out)
	}
	return out
}

func (f *reloadFixture) try(user, path string, body any) ([]byte, int, error) {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, f.url+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(user, user+"-pw")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return out, resp.StatusCode, err
}

func (f *reloadFixture) reload(status int) ReloadResult {
	f.t.Helper()
	var r ReloadResult
	if err := json.Unmarshal(f.do(status, "alice", APIReloadPath, nil), &r); err != nil {
		f.t.Fatal(err)
	}
	return r
}

// serial is the serial number of the certificate a new connection gets.
func (f *reloadFixture) serial() int64 {
	f.t.Helper()
	conn, err := tls.Dial("tcp", strings.TrimPrefix(f.url, "https://"), &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		f.t.Fatal(err)
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
}

// writeCert writes a self-signed certificate for 127.0.0.1 with serial
// and its key.
func writeCert(t *testing.T, certFile, keyFile string, serial int64) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// cursorPages reads a cursor's pages of fetch_size 2 until it ends; it
// returns the ids.
func (f *reloadFixture) nextPage(cursor string) (ids []any, next string) {
	f.t.Helper()
	var r jdbcReply
	if err := json.Unmarshal(f.do(200, "alice", "/_plugins/_sql", map[string]any{"cursor": cursor}), &r); err != nil {
		f.t.Fatal(err)
	}
	for _, row := range r.Datarows {
		ids = append(ids, row[0])
	}
	return ids, r.Cursor
}

// TestReload: a reload, by POST /api/v1/reload or by signal, applies a
// new users file, certificate and log level, leaves an open cursor
// paging, and keeps what it had when a new file is bad.
func TestReload(t *testing.T) {
	f := newReloadFixture(t)
	if got := f.serial(); got != 1 {
		t.Fatalf("serial %d, want 1", got)
	}
	var first jdbcReply
	_ = json.Unmarshal(f.do(200, "alice", "/_plugins/_sql", map[string]any{"query": "SELECT id FROM t ORDER BY id", "fetch_size": 2}), &first)
	if first.Cursor == "" || len(first.Datarows) != 2 {
		t.Fatalf("want a page of 2 and a cursor: %+v", first)
	}
	ids := []any{first.Datarows[0][0], first.Datarows[1][0]}

	// Users: carol added, bob removed; the log level and a setting that
	// needs a restart change in the "config file".
	f.do(200, "bob", "/_plugins/_sql", map[string]any{"query": "SELECT 1"})
	f.do(403, "bob", APIReloadPath, nil)
	f.writeUsers("alice", "carol")
	f.mu.Lock()
	f.next.LogLevel, f.restart = "debug", []string{"limits.max_rows"}
	f.mu.Unlock()
	r := f.reload(200)
	if got := fmt.Sprint(r.Reloaded, r.NeedsRestart, r.Errors); got != "[config users tls log_level] [limits.max_rows] map[]" {
		t.Fatalf("reload: %s", got)
	}
	if f.level.Level() != slog.LevelDebug {
		t.Fatalf("log level %v", f.level.Level())
	}
	f.do(200, "carol", "/_plugins/_sql", map[string]any{"query": "SELECT 1"})
	f.do(401, "bob", "/_plugins/_sql", map[string]any{"query": "SELECT 1"})
	page, cursor := f.nextPage(first.Cursor)
	ids = append(ids, page...)

	// A new certificate, by signal: new connections get it.
	writeCert(t, f.cert, f.key, 2)
	f.hup <- os.Interrupt
	for deadline := time.Now().Add(10 * time.Second); f.serial() != 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the new certificate is not served")
		}
	}
	page, cursor = f.nextPage(cursor)
	ids = append(ids, page...)

	// Bad files keep the ones loaded before.
	if err := os.WriteFile(f.users, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.cert, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = f.reload(500)
	if r.Errors["users"] == "" || !strings.Contains(r.Errors["tls"], "loading the TLS certificate") || fmt.Sprint(r.Reloaded) != "[config log_level]" {
		t.Fatalf("bad files: %+v", r)
	}
	f.do(200, "carol", "/_plugins/_sql", map[string]any{"query": "SELECT 1"})
	f.do(401, "bob", "/_plugins/_sql", map[string]any{"query": "SELECT 1"})
	if got := f.serial(); got != 2 {
		t.Fatalf("serial %d after a bad certificate, want 2", got)
	}
	for cursor != "" {
		page, cursor = f.nextPage(cursor)
		ids = append(ids, page...)
	}
	if got := fmt.Sprint(ids); got != "[0 1 2 3 4 5 6]" {
		t.Fatalf("cursor across reloads: %s", got)
	}

	// Every reload is in the audit log: who, what, and how it went.
	var got []string
	for _, r := range readAudit(t, f.srv, filepath.Join(f.dir, "audit.log")) {
		if r.str("event") == "reload" || r.str("endpoint") == "POST "+APIReloadPath {
			got = append(got, fmt.Sprintf("%s %s %s [%s] [%s] %s", r.str("event"), r.str("user"), r.str("endpoint"),
				r.str("reloaded"), r.str("needs_restart"), r.str("outcome")))
		}
	}
	want := []string{
		"refused bob POST /api/v1/reload [] [] refused",
		"reload alice POST /api/v1/reload [config,users,tls,log_level] [limits.max_rows] ok",
		"reload  SIGHUP [config,users,tls,log_level] [limits.max_rows] ok",
		"reload alice POST /api/v1/reload [config,log_level] [limits.max_rows] error",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("audit records of reloads:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestReloadUnderLoad: queries running while the server reloads again
// and again all succeed.
func TestReloadUnderLoad(t *testing.T) {
	f := newReloadFixture(t)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var queries atomic.Int64
	errs := make(chan error, 4)
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				out, code, err := f.try("alice", "/_plugins/_sql", map[string]any{"query": "SELECT count(*) FROM t"})
				if err == nil && (code != 200 || !strings.Contains(string(out), "[[7]]")) {
					err = fmt.Errorf("status %d: %s", code, out)
				}
				if err != nil {
					errs <- err
					return
				}
				queries.Add(1)
			}
		}()
	}
	for i := 0; i < 10; i++ {
		f.writeUsers("alice", fmt.Sprintf("user%d", i))
		writeCert(t, f.cert, f.key, int64(10+i))
		if r := f.srv.Reload(); r.Err() != nil {
			t.Fatal(r.Err())
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if queries.Load() == 0 {
		t.Fatal("no query ran")
	}
}

// TestReloadCannotTurnOnAuth: a server started without a users file or
// TLS reloads nothing of them; a users file appearing in the data dir
// needs a restart (authentication is not switched on under running
// clients), as does a certificate.
func TestReloadCannotTurnOnAuth(t *testing.T) {
	var next Reloadable
	f := newFixtureWith(t, 1, func(o *Options) {
		o.Reconfigure = func() (Reloadable, []string, error) { return next, nil, nil }
	})
	var r ReloadResult
	_ = json.Unmarshal(f.post(APIReloadPath, nil, 200), &r)
	if got := fmt.Sprint(r.Reloaded, r.NeedsRestart); got != "[config] []" {
		t.Fatalf("reload: %s", got)
	}
	u := &Users{}
	if err := u.SetPassword("alice", "alice-pw", RoleAdmin, bcrypt.MinCost); err != nil {
		t.Fatal(err)
	}
	if err := u.Save(DefaultUsersFile(filepath.Join(f.dir, "data"))); err != nil {
		t.Fatal(err)
	}
	next.TLSCert, next.TLSKey = "cert.pem", "key.pem"
	r = ReloadResult{}
	_ = json.Unmarshal(f.post(APIReloadPath, nil, 200), &r)
	if got := fmt.Sprint(r.Reloaded, r.NeedsRestart); got != "[config] [auth.users tls.cert]" {
		t.Fatalf("reload: %s", got)
	}
	f.sql(200, "SELECT 1") // still no authentication
}
