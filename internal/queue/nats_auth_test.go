package queue

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"sluice/internal/testutil/natsserver"
	"sluice/internal/usererr"
)

func writeFile(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// openReceive opens raw, publishes one event and receives it: the
// connection works end to end.
func openReceive(t *testing.T, ns *natsserver.Server, raw string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	q, err := Open(ctx, raw)
	if err != nil {
		t.Fatalf("open %s: %v", Redact(raw), err)
	}
	defer q.Close()
	if err := ns.Publish("s3.put", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	msgs, err := q.Receive(ctx, 1, 5*time.Second)
	if err != nil || len(msgs) != 1 || string(msgs[0].Data()) != "hello" {
		t.Fatalf("receive on %s: %v, %d messages", Redact(raw), err, len(msgs))
	}
	if err := q.Ack(ctx, msgs); err != nil {
		t.Fatal(err)
	}
}

func hostPort(ns *natsserver.Server) string {
	_, hp, _ := strings.Cut(ns.URL, "://")
	return hp
}

// TestNATSTLSClientCert: a server that requires TLS and a client
// certificate from the test's CA is reached over tls:// with ca=,
// cert= and key= (paths from ${env:VAR} too); without the client
// certificate, or trusting another CA, the open fails at once, not as
// an outage (which would be retried forever).
func TestNATSTLSClientCert(t *testing.T) {
	dir := t.TempDir()
	ca := newTestCA(t, "sluice nats test CA")
	srvCert, srvKey := ca.issue(t, 2, "localhost", x509.ExtKeyUsageServerAuth)
	cliCert, cliKey := ca.issue(t, 3, "sluice", x509.ExtKeyUsageClientAuth)
	pair, err := tls.X509KeyPair(srvCert, srvKey)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca.pem)
	ns, err := natsserver.StartWith(t.TempDir(), func(o *server.Options) {
		o.TLS, o.TLSVerify = true, true
		o.TLSConfig = &tls.Config{Certificates: []tls.Certificate{pair}, ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS12}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Stop)
	cp, err := tls.X509KeyPair(cliCert, cliKey)
	if err != nil {
		t.Fatal(err)
	}
	ns.Client = []nats.Option{nats.Secure(&tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cp}, ServerName: "localhost"})}
	if err := ns.AddStream("events", "s3.>"); err != nil {
		t.Fatal(err)
	}
	caFile := writeFile(t, dir, "ca.pem", ca.pem)
	certFile := writeFile(t, dir, "client.pem", cliCert)
	keyFile := writeFile(t, dir, "client.key", cliKey)
	_, port, _ := net.SplitHostPort(hostPort(ns))
	base := "tls://localhost:" + port + "/events/sluice"
	t.Setenv("SLUICE_TEST_NATS_CA", caFile)
	openReceive(t, ns, base+"?ca=${env:SLUICE_TEST_NATS_CA}&cert="+certFile+"&key="+keyFile)
	openReceive(t, ns, "nats://localhost:"+port+"/events/sluice?ca="+caFile+"&cert="+certFile+"&key="+keyFile)

	other := newTestCA(t, "another CA")
	otherFile := writeFile(t, dir, "other.pem", other.pem)
	for name, raw := range map[string]string{
		"no client certificate": base + "?ca=" + caFile,
		"another CA":            base + "?ca=" + otherFile + "&cert=" + certFile + "&key=" + keyFile,
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		t0 := time.Now()
		q, err := Open(ctx, raw)
		cancel()
		if err == nil {
			q.Close()
			t.Errorf("%s: opened", name)
			continue
		}
		t.Logf("%s (%s): %v", name, time.Since(t0).Round(time.Millisecond), err)
		if errors.Is(err, ErrUnreachable) {
			t.Errorf("%s: %v, want a certificate error, not ErrUnreachable", name, err)
		}
	}
}

// TestNATSNKeyUser: an NKey user is reached with nkey=SEEDFILE; an
// unknown key is denied at once.
func TestNATSNKeyUser(t *testing.T) {
	dir := t.TempDir()
	kp, _ := nkeys.CreateUser()
	pub, _ := kp.PublicKey()
	seed, _ := kp.Seed()
	ns, err := natsserver.StartWith(t.TempDir(), func(o *server.Options) { o.Nkeys = []*server.NkeyUser{{Nkey: pub}} })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Stop)
	ns.Client = []nats.Option{nats.Nkey(pub, kp.Sign)}
	if err := ns.AddStream("events", "s3.>"); err != nil {
		t.Fatal(err)
	}
	seedFile := writeFile(t, dir, "user.nk", seed)
	openReceive(t, ns, ns.URL+"/events/sluice?nkey="+seedFile)

	stranger, _ := nkeys.CreateUser()
	sseed, _ := stranger.Seed()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = Open(ctx, ns.URL+"/events/sluice?nkey="+writeFile(t, dir, "stranger.nk", sseed))
	if !errors.Is(err, ErrDenied) || errors.Is(err, ErrUnreachable) || !usererr.IsUser(err) {
		t.Errorf("unknown nkey: %v, want ErrDenied", err)
	}
	if err != nil && strings.Contains(err.Error(), string(sseed)) {
		t.Errorf("the error shows the seed")
	}
}

// operator is a decentralized-auth setup of the test's own: operator,
// system and user accounts (JetStream enabled), and a user of it.
type operator struct {
	claims          *jwt.OperatorClaims
	resolver        *server.MemAccResolver
	sysPub          string
	userJWT         string
	userSeed        []byte
	accKP, userKP   nkeys.KeyPair
	accPub, userPub string
}

func newOperator(t *testing.T) *operator {
	t.Helper()
	okp, _ := nkeys.CreateOperator()
	opub, _ := okp.PublicKey()
	oc := jwt.NewOperatorClaims(opub)
	o := &operator{claims: oc, resolver: &server.MemAccResolver{}}
	account := func(js bool) (nkeys.KeyPair, string) {
		kp, _ := nkeys.CreateAccount()
		pub, _ := kp.PublicKey()
		ac := jwt.NewAccountClaims(pub)
		if js {
			ac.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: -1, DiskStorage: -1, Streams: -1, Consumer: -1}
		}
		enc, err := ac.Encode(okp)
		if err != nil {
			t.Fatal(err)
		}
		if err := o.resolver.Store(pub, enc); err != nil {
			t.Fatal(err)
		}
		return kp, pub
	}
	_, o.sysPub = account(false)
	o.accKP, o.accPub = account(true)
	o.userKP, _ = nkeys.CreateUser()
	o.userPub, _ = o.userKP.PublicKey()
	uc := jwt.NewUserClaims(o.userPub)
	var err error
	if o.userJWT, err = uc.Encode(o.accKP); err != nil {
		t.Fatal(err)
	}
	o.userSeed, _ = o.userKP.Seed()
	return o
}

// TestNATSCredsAndJWT: an operator-mode server is reached with a user's
// creds file, and with its JWT and seed as jwt= and nkey=.
func TestNATSCredsAndJWT(t *testing.T) {
	dir := t.TempDir()
	op := newOperator(t)
	ns, err := natsserver.StartWith(t.TempDir(), func(o *server.Options) {
		o.TrustedOperators = []*jwt.OperatorClaims{op.claims}
		o.AccountResolver = op.resolver
		o.SystemAccount = op.sysPub
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Stop)
	creds, err := jwt.FormatUserConfig(op.userJWT, op.userSeed)
	if err != nil {
		t.Fatal(err)
	}
	credsFile := writeFile(t, dir, "user.creds", creds)
	ns.Client = []nats.Option{nats.UserCredentials(credsFile)}
	if err := ns.AddStream("events", "s3.>"); err != nil {
		t.Fatal(err)
	}
	openReceive(t, ns, ns.URL+"/events/sluice?creds="+credsFile)
	jwtFile := writeFile(t, dir, "user.jwt", []byte(op.userJWT))
	seedFile := writeFile(t, dir, "user.nk", op.userSeed)
	openReceive(t, ns, ns.URL+"/events/sluice?jwt="+jwtFile+"&nkey="+seedFile)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = Open(ctx, ns.URL+"/events/sluice")
	if !errors.Is(err, ErrDenied) || errors.Is(err, ErrUnreachable) {
		t.Errorf("no credentials: %v, want ErrDenied", err)
	}
}

// TestNATSServerList: with the first server of the list down, both list
// forms reach the second.
func TestNATSServerList(t *testing.T) {
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("events", "s3.>"); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().(*net.TCPAddr).Port
	l.Close()
	down := "127.0.0.1:" + strconv.Itoa(dead)
	for _, raw := range []string{
		"nats://" + down + "," + hostPort(ns) + "/events/sluice",
		"nats://" + down + ",nats://" + hostPort(ns) + "/events/sluice",
	} {
		t0 := time.Now()
		openReceive(t, ns, raw)
		t.Logf("%s: %s", raw, time.Since(t0).Round(time.Millisecond))
	}
	// All down: an outage, retried.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = Open(ctx, "nats://"+down+",nats://"+down+"/events/sluice")
	if !errors.Is(err, ErrUnreachable) {
		t.Errorf("every server down: %v, want ErrUnreachable", err)
	}
}
