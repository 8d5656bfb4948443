package main

// Tests of the service's security as a user meets it: sluice passwd and
// sluice token, serve refusing an open address without users, sql
// --server with credentials and TLS, and the OpenSearch SQL CLI with
// basic auth over HTTPS.

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sluice/internal/server"
	"sluice/internal/testutil/integration"
)

// sluiceCmd runs sluice with stdin and extra environment, returning
// stdout, stderr and the error.
func sluiceCmd(stdin string, env []string, args ...string) (string, string, error) {
	cmd := exec.Command(sluiceBin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

func TestPasswdAndToken(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	if out, errs, err := sluiceCmd("s3cret-pw\n", nil, "passwd", "--data-dir", data, "alice", "--role", "admin"); err != nil || !strings.Contains(out, "user alice saved") {
		t.Fatalf("passwd: %q %q %v", out, errs, err)
	}
	if _, _, err := sluiceCmd("", nil, "passwd", "--data-dir", data, "bob"); err == nil {
		t.Error("passwd with an empty stdin succeeded")
	}
	if _, errs, err := sluiceCmd("x\n", nil, "passwd", "--data-dir", data, "--role", "root", "bob"); err == nil || !strings.Contains(errs, "want read, write or admin") {
		t.Errorf("passwd --role root: %q %v", errs, err)
	}
	tok, errs, err := sluiceCmd("", nil, "token", "create", "--data-dir", data, "--role", "read", "dash")
	if err != nil || !strings.HasPrefix(tok, "sluice_") {
		t.Fatalf("token create: %q %q %v", tok, errs, err)
	}
	if _, errs, err := sluiceCmd("", nil, "token", "create", "--data-dir", data, "nobody"); err == nil || !strings.Contains(errs, "--role") {
		t.Errorf("token create without --role: %q %v", errs, err)
	}
	if _, errs, err := sluiceCmd("", nil, "token", "create", "--data-dir", data, "--role", "write", "ci"); err != nil {
		t.Errorf("token create --role write: %q %v", errs, err)
	}
	if u, err := server.LoadUsers(filepath.Join(data, "users")); err != nil || len(u.Tokens) != 2 || u.Tokens[1].Role != "write" {
		t.Errorf("the write token: %+v %v", u, err)
	}
	users := filepath.Join(data, "users")
	fi, err := os.Stat(users)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("users file mode %o", fi.Mode().Perm())
	}
	raw, _ := os.ReadFile(users)
	if strings.Contains(string(raw), "s3cret-pw") || strings.Contains(string(raw), strings.TrimSpace(tok)) {
		t.Errorf("the users file holds a credential in clear:\n%s", raw)
	}
}

func TestServeRefusesOpenAddressWithoutUsers(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	_, errs, err := sluiceCmd("", nil, "serve", "--listen", "0.0.0.0:0", "--data-dir", data)
	if err == nil || !strings.Contains(errs, "refusing to listen outside loopback without authentication") || !strings.Contains(errs, "sluice passwd") {
		t.Fatalf("serve on 0.0.0.0 without users: %v\n%s", err, errs)
	}
}

// TestServeWithAuth: the data dir's users file turns authentication on;
// sql --server passes a user (password from SLUICE_PASSWORD) or a token,
// over HTTPS with --ca-cert.
func TestServeWithAuth(t *testing.T) {
	root := t.TempDir()
	data, in := filepath.Join(root, "data"), filepath.Join(root, "in")
	writeInputs(t, in, 0, 2, 10)
	if _, errs, err := sluiceCmd("admin-pw\n", nil, "passwd", "--data-dir", data, "--role", "admin", "alice"); err != nil {
		t.Fatal(errs)
	}
	if _, errs, err := sluiceCmd("read-pw\n", nil, "passwd", "--data-dir", data, "bob"); err != nil {
		t.Fatal(errs)
	}
	tok, errs, err := sluiceCmd("", nil, "token", "create", "--data-dir", data, "--role", "read", "dash")
	if err != nil {
		t.Fatal(errs)
	}
	tok = strings.TrimSpace(tok)
	cert, key := testCert(t, root)
	shared := filepath.Join(root, "shared")
	writeInputs(t, shared, 0, 1, 3)
	p := startServe(t, data, "--tls-cert", cert, "--tls-key", key, "--allow-location", shared)
	if !strings.HasPrefix(p.url, "https://") {
		t.Fatalf("listening on %s", p.url)
	}
	sqlAs := func(env []string, args ...string) (string, string, error) {
		return sluiceCmd("", env, append([]string{"sql", "--server", p.url, "--ca-cert", cert, "--format", "csv"}, args...)...)
	}
	if _, errs, err := sqlAs(nil, "-e", "SELECT 1"); err == nil || !strings.Contains(errs, "authentication failed") {
		t.Fatalf("no credentials: %v %s", err, errs)
	}
	if _, errs, err := sqlAs([]string{"SLUICE_PASSWORD=nope"}, "--user", "alice", "-e", "SELECT 1"); err == nil || !strings.Contains(errs, "authentication failed") {
		t.Fatalf("wrong password: %v %s", err, errs)
	}
	if out, errs, err := sqlAs([]string{"SLUICE_PASSWORD=admin-pw"}, "--user", "alice", "-e",
		"CREATE TABLE logs (id BIGINT, host STRING, bytes BIGINT) USING json LOCATION '"+in+"/'"); err != nil || !strings.Contains(out+errs, "table logs created") {
		t.Fatalf("admin CREATE: %q %v %s", out, err, errs)
	}
	if out, errs, err := sqlAs([]string{"SLUICE_USER=bob", "SLUICE_PASSWORD=read-pw"}, "-e", "SELECT count(*) AS n FROM logs"); err != nil || strings.TrimSpace(out) != "n\n20" {
		t.Fatalf("read SELECT: %q %v %s", out, err, errs)
	}
	if _, errs, err := sqlAs([]string{"SLUICE_TOKEN=" + tok}, "-e", "DROP TABLE logs"); err == nil || !strings.Contains(errs, "needs role admin") {
		t.Fatalf("read token DROP: %v %s", err, errs)
	}
	if out, errs, err := sqlAs(nil, "--token", tok, "-e", "SHOW TABLES"); err != nil || !strings.Contains(out, "logs") {
		t.Fatalf("read token SHOW TABLES: %q %v %s", out, err, errs)
	}
	if _, errs, err := sluiceCmd("", []string{"SLUICE_PASSWORD=admin-pw"}, "sql", "--server", p.url, "--user", "alice", "-e", "SELECT 1"); err == nil || !strings.Contains(errs, "certificate") {
		t.Fatalf("https without --ca-cert: %v %s", err, errs)
	}
	if strings.Contains(p.log(), "admin-pw") || strings.Contains(p.log(), tok) {
		t.Fatalf("the server log shows a credential:\n%s", p.log())
	}

	// The OpenSearch SQL CLI with -u/-w over HTTPS (requests trusts the
	// certificate through REQUESTS_CA_BUNDLE).
	cliPath, err := installOpenSearchSQL()
	if err != nil {
		integration.Unavailable(t, "OPENSEARCHSQL CLI UNAVAILABLE: %v", err)
	}
	osql := func(args ...string) string {
		cmd := exec.Command(cliPath, append([]string{p.url}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+root, "TERM=dumb", "REQUESTS_CA_BUNDLE="+cert)
		cmd.Stdin = strings.NewReader("")
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	if out := osql("-u", "bob", "-w", "read-pw", "-q", "SELECT host, count(*) AS n FROM logs GROUP BY host ORDER BY host LIMIT 2"); !strings.Contains(out, "| h0     | 3   |") {
		t.Fatalf("opensearchsql -u bob:\n%s", out)
	}
	if out := osql("-u", "bob", "-w", "wrong", "-q", "SELECT 1"); strings.Contains(out, "fetched rows") {
		t.Fatalf("opensearchsql with a wrong password got rows:\n%s", out)
	}
	// A read user reaches data through catalog tables only: the catalog,
	// the users file and /etc/passwd are 403s, not rows.
	for _, path := range []string{filepath.Join(data, "catalog.json"), filepath.Join(data, "users"), "/etc/passwd"} {
		out := osql("-u", "bob", "-w", "read-pw", "-q", "SELECT * FROM csv.`"+path+"`")
		// The CLI shows a 403 as opensearchpy's AuthorizationException;
		// sql --server below shows the rule.
		if !strings.Contains(out, "AuthorizationException(403, 'SecurityException')") ||
			strings.Contains(out, "fetched rows") || strings.Contains(out, "bcrypt") || strings.Contains(out, "root:") {
			t.Fatalf("opensearchsql -u bob reading %s:\n%s", path, out)
		}
		if _, errs, err := sqlAs([]string{"SLUICE_USER=bob", "SLUICE_PASSWORD=read-pw"}, "-e", "SELECT * FROM csv.`"+path+"`"); err == nil ||
			!strings.Contains(errs, "user bob (role read) may read files only through catalog tables or --allow-location prefixes") {
			t.Fatalf("sql --server as bob reading %s: %v %s", path, err, errs)
		}
	}

	if out, errs, err := sqlAs([]string{"SLUICE_USER=bob", "SLUICE_PASSWORD=read-pw"}, "-e", "SELECT count(*) AS n FROM json.`"+shared+"`"); err != nil || strings.TrimSpace(out) != "n\n3" {
		t.Fatalf("sql --server as bob reading the --allow-location: %q %v %s", out, err, errs)
	}

	// A write user (passwd --role write) inserts; DDL stays admin's.
	if _, errs, err := sluiceCmd("write-pw\n", nil, "passwd", "--data-dir", data, "--role", "write", "wendy"); err != nil {
		t.Fatal(errs)
	}
	wendy := []string{"SLUICE_USER=wendy", "SLUICE_PASSWORD=write-pw"}
	if _, errs, err := sqlAs(wendy, "-e", "INSERT INTO logs VALUES (100, 'h9', 1)"); err != nil {
		t.Fatalf("write INSERT: %v %s", err, errs)
	}
	if _, errs, err := sqlAs(wendy, "-e", "DROP TABLE logs"); err == nil || !strings.Contains(errs, "needs role admin") {
		t.Fatalf("write DROP: %v %s", err, errs)
	}
}

// testCert writes a self-signed certificate for 127.0.0.1, made now.
func testCert(t *testing.T, dir string) (string, string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "sluice test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	write(t, cert, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})))
	write(t, key, string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})))
	return cert, key
}
