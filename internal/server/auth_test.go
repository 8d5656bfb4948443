package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"sluice/internal/cli"
	"sluice/internal/sql"
)

// authFixture is a server with a users file: alice (admin), bob (read),
// wendy (write), and the tokens readTok (read) and adminTok (admin).
type authFixture struct {
	t                 *testing.T
	dir               string
	srv               *Server
	url               string
	readTok, adminTok string
}

func newAuthFixture(t *testing.T, mod func(*Options)) *authFixture {
	t.Helper()
	dir := t.TempDir()
	f := &authFixture{t: t, dir: dir}
	var b strings.Builder
	for i := 0; i < 10; i++ {
		b.WriteString(`{"id": ` + string(rune('0'+i)) + `, "name": "n"}` + "\n")
	}
	writeFile(t, filepath.Join(dir, "in", "part0.json"), b.String())
	users := filepath.Join(dir, "users")
	u := &Users{}
	for _, x := range []struct {
		name, pw string
		role     Role
	}{{"alice", "alice-pw", RoleAdmin}, {"bob", "bob-pw", RoleRead}, {"wendy", "wendy-pw", RoleWrite}} {
		if err := u.SetPassword(x.name, x.pw, x.role, bcrypt.MinCost); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	if f.readTok, err = u.CreateToken("reader", RoleRead); err != nil {
		t.Fatal(err)
	}
	if f.adminTok, err = u.CreateToken("ops", RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if err := u.Save(users); err != nil {
		t.Fatal(err)
	}
	o := Options{DataDir: filepath.Join(dir, "data"), Logf: t.Logf, Security: Security{Users: users}}
	if mod != nil {
		mod(&o)
	}
	if f.srv, err = Open(o); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(f.srv.Handler())
	f.url = hs.URL
	t.Cleanup(func() {
		hs.Close()
		_ = f.srv.Close(10 * time.Second)
	})
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE t (id BIGINT, name STRING) USING json LOCATION '"+filepath.Join(dir, "in")+"/'")
	return f
}

// do posts query to path as user with password (user "" sends nothing;
// "Bearer x" as user sends a token) and checks the status.
func (f *authFixture) do(status int, path, user, pw, query string) []byte {
	f.t.Helper()
	body := map[string]string{"query": query}
	if path == AsyncQueryPath {
		body["datasource"], body["lang"] = "sluice", "sql"
	}
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, f.url+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	switch {
	case strings.HasPrefix(user, "Bearer "):
		req.Header.Set("Authorization", user)
	case user != "":
		req.SetBasicAuth(user, pw)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		f.t.Fatalf("%s as %q: %s: status %d, want %d: %s", path, user, query, resp.StatusCode, status, out)
	}
	return out
}

func TestAuthRequired(t *testing.T) {
	f := newAuthFixture(t, nil)
	noCreds := f.do(401, "/_plugins/_sql", "", "", "SELECT 1")
	wrongPw := f.do(401, "/_plugins/_sql", "bob", "alice-pw", "SELECT 1")
	unknown := f.do(401, "/_plugins/_sql", "mallory", "bob-pw", "SELECT 1")
	if !bytes.Equal(wrongPw, unknown) || !bytes.Equal(noCreds, unknown) {
		t.Errorf("a wrong password, an unknown user and no credentials answer differently:\n%s\n%s\n%s", wrongPw, unknown, noCreds)
	}
	f.do(401, "/api/v1/statement", "Bearer sluice_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "", "SELECT 1")
	f.do(401, "/api/v1/statement", "Bearer "+f.readTok+"x", "", "SELECT 1")
	f.do(401, "/api/v1/statement", "Bearer ", "", "SELECT 1")
	f.do(401, "/_cat/plugins", "", "", "")
	// The password's hash in the file is not a password.
	u, _ := LoadUsers(filepath.Join(f.dir, "users"))
	f.do(401, "/_plugins/_sql", "bob", u.Users[0].Bcrypt, "SELECT 1")
	f.do(401, "/_plugins/_sql", "Bearer "+u.Tokens[0].SHA256, "", "SELECT 1")

	// Status endpoints need a user too, any role.
	req, _ := http.NewRequest(http.MethodGet, f.url+"/", nil)
	req.SetBasicAuth("bob", "bob-pw")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("WWW-Authenticate") != "" {
		t.Errorf("GET / as bob: %d", resp.StatusCode)
	}
}

func TestRoles(t *testing.T) {
	f := newAuthFixture(t, nil)
	for _, path := range []string{"/_plugins/_sql", "/api/v1/statement", "/_opendistro/_sql"} {
		for _, who := range [][2]string{{"bob", "bob-pw"}, {"Bearer " + f.readTok, ""}} {
			for _, q := range []string{
				"SELECT count(*) FROM t", "SHOW TABLES", "DESCRIBE t", "SHOW CREATE TABLE t",
				"EXPLAIN SELECT * FROM t", "EXPLAIN INSERT INTO t SELECT * FROM t", "SHOW STREAMS",
			} {
				f.do(200, path, who[0], who[1], q)
			}
			for q, need := range map[string]string{
				"CREATE TABLE u (x INT) USING json LOCATION '" + f.dir + "/u/'": "admin",
				"INSERT INTO t SELECT * FROM t":                                 "write",
				"insert /* SELECT */ into t values (1, 'x')":                    "write",
				"DROP TABLE t": "admin",
				"EXPLAIN ANALYZE INSERT INTO t SELECT * FROM t": "write",
				"SET s3.endpoint = 'http://127.0.0.1:1'":        "admin",
				"STOP STREAM feed":                              "write",
			} {
				body := f.do(403, path, who[0], who[1], q)
				if !strings.Contains(string(body), "SecurityException") || !strings.Contains(string(body), "needs role "+need) {
					t.Errorf("403 body: %s", body)
				}
			}
		}
	}
	f.do(403, "/_plugins/_sql/_explain", "bob", "bob-pw", "ANALYZE INSERT INTO t SELECT * FROM t")
	f.do(200, "/_plugins/_sql/_explain", "bob", "bob-pw", "SELECT * FROM t")
	// The table is still there: nothing bob sent ran.
	if out := f.do(200, "/_plugins/_sql?format=csv", "alice", "alice-pw", "SELECT count(*) AS n FROM t"); strings.TrimSpace(string(out)) != "n\n10" {
		t.Errorf("count after bob's tries: %q", out)
	}
	f.do(200, "/_plugins/_sql", "Bearer "+f.adminTok, "", "CREATE TABLE u (x INT) USING json LOCATION '"+f.dir+"/u/'")
	f.do(200, "/api/v1/statement", "alice", "alice-pw", "INSERT INTO u VALUES (1)")
}

// TestUnknownRouteIsAdmin: a route registered without readRoute (as a
// new endpoint family would be) is admin-only.
func TestUnknownRouteIsAdmin(t *testing.T) {
	f := newAuthFixture(t, nil)
	f.srv.mux.HandleFunc("POST /api/v1/new", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ran") })
	f.do(403, "/api/v1/new", "bob", "bob-pw", "")
	f.do(403, "/api/v1/new", "Bearer "+f.readTok, "", "")
	f.do(401, "/api/v1/new", "", "", "")
	if out := f.do(200, "/api/v1/new", "alice", "alice-pw", ""); string(out) != "ran" {
		t.Errorf("admin got %q", out)
	}
	f.do(404, "/nothing/here", "bob", "bob-pw", "")
}

// TestStatementOutsideRequest: with authentication on, a statement run
// with a context that lost the request's caller is refused, whatever it is.
func TestStatementOutsideRequest(t *testing.T) {
	f := newAuthFixture(t, nil)
	if _, err := f.srv.execute(context.Background(), "SELECT 1"); !errors.As(err, new(*forbiddenError)) {
		t.Fatalf("execute without a caller: %v", err)
	}
	ctx := context.WithoutCancel(withPrincipal(context.Background(), principal{name: "bob", role: RoleRead}))
	if _, err := f.srv.execute(ctx, "SELECT 1"); err != nil {
		t.Fatalf("execute as bob: %v", err)
	}
}

// TestUsersFileReload: `sluice passwd` on a running server takes effect
// at the next request.
func TestUsersFileReload(t *testing.T) {
	f := newAuthFixture(t, nil)
	f.do(200, "/_plugins/_sql", "bob", "bob-pw", "SELECT 1")
	path := filepath.Join(f.dir, "users")
	u, err := LoadUsers(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := u.SetPassword("bob", "new-pw", RoleNone, bcrypt.MinCost); err != nil {
		t.Fatal(err)
	}
	u.RevokeToken("reader")
	if err := u.Save(path); err != nil {
		t.Fatal(err)
	}
	f.do(401, "/_plugins/_sql", "bob", "bob-pw", "SELECT 1")
	f.do(200, "/_plugins/_sql", "bob", "new-pw", "SELECT 1")
	f.do(403, "/_plugins/_sql", "bob", "new-pw", "DROP TABLE t") // role kept
	f.do(401, "/_plugins/_sql", "Bearer "+f.readTok, "", "SELECT 1")
}

func TestUsersFileMode(t *testing.T) {
	f := newAuthFixture(t, nil)
	for _, p := range []string{filepath.Join(f.dir, "users"), filepath.Join(f.dir, "data", "catalog.json")} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %o, want 600", p, fi.Mode().Perm())
		}
	}
	data, _ := os.ReadFile(filepath.Join(f.dir, "users"))
	for _, s := range []string{"alice-pw", "bob-pw", f.readTok, f.adminTok} {
		if strings.Contains(string(data), s) {
			t.Errorf("the users file holds %q in clear", s)
		}
	}
}

// TestRemoteWithCredentials: sluice sql --server with a user, a token,
// and neither.
func TestRemoteWithCredentials(t *testing.T) {
	f := newAuthFixture(t, nil)
	st, _ := sql.ParseOne("SELECT count(*) AS n FROM t")
	for _, r := range []*cli.Remote{{URL: f.url, User: "bob", Password: "bob-pw"}, {URL: f.url, Token: f.readTok}} {
		if _, err := r.ExecuteStatement(context.Background(), st); err != nil {
			t.Errorf("%+v: %v", r.User, err)
		}
	}
	r := &cli.Remote{URL: f.url, User: "bob", Password: "nope"}
	if _, err := r.ExecuteStatement(context.Background(), st); err == nil || !strings.Contains(err.Error(), "authentication failed") {
		t.Errorf("wrong password: %v", err)
	}
	drop, _ := sql.ParseOne("DROP TABLE t")
	r = &cli.Remote{URL: f.url, Token: f.readTok}
	if _, err := r.ExecuteStatement(context.Background(), drop); err == nil || !strings.Contains(err.Error(), "needs role admin") {
		t.Errorf("DROP as a read token: %v", err)
	}
}

// TestNonLoopbackNeedsAuth: without a users file the server refuses an
// address outside loopback before binding it, and Serve refuses such a
// listener; with one it serves.
func TestNonLoopbackNeedsAuth(t *testing.T) {
	dir := t.TempDir()
	srv, err := Open(Options{DataDir: filepath.Join(dir, "data"), Logf: t.Logf, Listen: "0.0.0.0:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close(time.Second)
	err = srv.ListenAndServe(context.Background())
	if !errors.Is(err, ErrNoAuth) || !strings.Contains(err.Error(), "sluice passwd") {
		t.Fatalf("ListenAndServe on 0.0.0.0 without auth: %v", err)
	}
	for _, a := range []string{":9210", "[::]:0", "192.0.2.1:80"} {
		if err := srv.checkListenAddr(a); !errors.Is(err, ErrNoAuth) {
			t.Errorf("%s: %v", a, err)
		}
	}
	for _, a := range []string{"127.0.0.1:0", "[::1]:0", "localhost:0"} {
		if err := srv.checkListenAddr(a); err != nil {
			t.Errorf("%s: %v", a, err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(context.Background(), fakeAddrListener{ln}); !errors.Is(err, ErrNoAuth) {
		t.Fatalf("Serve on a listener at 10.1.2.3: %v", err)
	}
	f := newAuthFixture(t, nil)
	if err := f.srv.checkListenAddr("0.0.0.0:0"); err != nil {
		t.Errorf("with a users file: %v", err)
	}
}

// fakeAddrListener claims a non-loopback address (nothing is sent to it).
type fakeAddrListener struct{ net.Listener }

func (fakeAddrListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 9210} }

// TestCurrentUserIsCaller: current_user() names the authenticated caller.
func TestCurrentUserIsCaller(t *testing.T) {
	f := newAuthFixture(t, nil)
	for _, who := range [][3]string{{"bob", "bob-pw", `"bob"`}, {"Bearer " + f.readTok, "", `"token:reader"`}} {
		out := f.do(200, "/_plugins/_sql", who[0], who[1], "SELECT current_user()")
		if !strings.Contains(string(out), who[2]) {
			t.Errorf("current_user() as %s: %s", who[0], out)
		}
	}
}
