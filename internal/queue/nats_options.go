package queue

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"sluice/internal/usererr"
)

// NATSTarget is a parsed nats:// (or tls://) queue URL: the servers to
// try, the stream and consumer, and the connection options of its query,
// taken as the NATS tools take them:
//
//	nats://h1:4222,h2:4222/S/C            servers after the first without a scheme
//	nats://h1:4222,nats://h2:4222/S/C     each with one (what `nats server ls` prints)
//	tls://h1:4222/S/C?ca=/etc/nats/ca.pem TLS, the server's certificate checked against ca
//
//	creds=FILE   a user's credentials file (JWT and NKey seed), decentralized auth
//	jwt=FILE     a user JWT, signed with nkey= (the pair a creds file holds)
//	nkey=FILE    an NKey seed file (an NKey user; or the signer of jwt=)
//	ca=FILE      CA certificates (PEM) the server's certificate must chain to
//	cert=FILE    client certificate (PEM), with key=FILE its private key
//
// User info (user:password@ or token@) of the first server that has one
// applies to every server, including those the cluster announces.
type NATSTarget struct {
	// Servers are scheme://host:port, without user info.
	Servers  []string
	Stream   string
	Consumer string
	Query    url.Values
	user     *url.Userinfo
	secure   bool
	raw      string
}

// natsServerItem is one server of the list: an optional scheme, then
// everything up to the next comma, slash or end.
var natsServerItem = regexp.MustCompile(`^(?:([A-Za-z][A-Za-z0-9+.-]*)://)?([^,/]*)`)

// ParseNATS parses a nats:// or tls:// queue URL (after ${env:VAR}
// expansion). Errors are ErrBadURL and show the URL redacted.
func ParseNATS(raw string) (*NATSTarget, error) {
	bad := func(why string) error {
		return usererr.Wrap(usererr.Invalid, fmt.Errorf("%w: %s: %s", ErrBadURL, Redact(raw), why))
	}
	const want = "want nats://host:port[,host2:port]/<jetstream-stream>/<consumer>"
	i := strings.Index(raw, "://")
	if i < 0 {
		return nil, bad(want)
	}
	scheme, rest := strings.ToLower(raw[:i]), raw[i+3:]
	if scheme != "nats" && scheme != "tls" {
		return nil, bad(want)
	}
	query := ""
	if j := strings.IndexByte(rest, '?'); j >= 0 {
		rest, query = rest[:j], rest[j+1:]
	}
	t := &NATSTarget{raw: raw, secure: scheme == "tls"}
	items, rest := splitNATSServers(scheme, rest)
	for _, it := range items {
		s := it.scheme
		if s != "nats" && s != "tls" {
			return nil, bad("server scheme " + s + "://: want nats:// or tls://")
		}
		u, err := url.Parse(s + "://" + it.host)
		if err != nil || u.Host == "" || u.Path != "" {
			return nil, bad("server " + strconv.Quote(Redact(s+"://"+it.host)) + " is no host:port")
		}
		if u.User != nil && t.user == nil {
			t.user = u.User
		}
		t.secure = t.secure || s == "tls"
		t.Servers = append(t.Servers, s+"://"+u.Host)
	}
	parts := strings.Split(strings.Trim(rest, "/"), "/")
	if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
		return nil, bad(want)
	}
	var err error
	if t.Stream, err = url.PathUnescape(parts[0]); err != nil {
		return nil, bad(want)
	}
	if t.Consumer, err = url.PathUnescape(parts[1]); err != nil {
		return nil, bad(want)
	}
	if t.Query, err = url.ParseQuery(query); err != nil {
		return nil, bad("query: " + err.Error())
	}
	return t, nil
}

// natsServer is one entry of a server list: its scheme (the URL's when
// it has none of its own: explicit false) and user info and host:port.
type natsServer struct {
	scheme, host string
	explicit     bool
}

// splitNATSServers splits rest, a URL after scheme://, into its
// comma-separated servers and what follows them (path and query).
func splitNATSServers(scheme, rest string) ([]natsServer, string) {
	var items []natsServer
	for {
		m := natsServerItem.FindStringSubmatch(rest)
		it := natsServer{scheme: scheme, host: m[2], explicit: len(items) == 0}
		if m[1] != "" {
			it.scheme, it.explicit = strings.ToLower(m[1]), true
		}
		items = append(items, it)
		rest = rest[len(m[0]):]
		if !strings.HasPrefix(rest, ",") {
			return items, rest
		}
		rest = rest[1:]
	}
}

// String is the URL redacted, for messages.
func (t *NATSTarget) String() string { return Redact(t.raw) }

// ServerList is the servers joined as nats.Connect takes them.
func (t *NATSTarget) ServerList() string { return strings.Join(t.Servers, ",") }

// Options are the client options of the URL's user info and query:
// credentials and TLS. Each file is read here, so a missing or malformed
// one is a user error now, not a connect that looks like an outage and
// is retried forever. Errors name the file, never its content.
func (t *NATSTarget) Options() ([]nats.Option, error) {
	q := t.Query
	bad := func(format string, args ...any) error {
		return usererr.Wrap(usererr.Invalid, fmt.Errorf("%w: %s: %s", ErrBadURL, t.String(), fmt.Sprintf(format, args...)))
	}
	var opts []nats.Option
	if t.user != nil {
		if pw, ok := t.user.Password(); ok {
			opts = append(opts, nats.UserInfo(t.user.Username(), pw))
		} else {
			opts = append(opts, nats.Token(t.user.Username()))
		}
	}
	creds, jwtFile, seed := q.Get("creds"), q.Get("jwt"), q.Get("nkey")
	switch {
	case creds != "" && (jwtFile != "" || seed != ""):
		return nil, bad("creds= holds the JWT and the NKey seed: give it alone, or jwt= and nkey=")
	case creds != "":
		if err := checkCreds(creds, creds); err != nil {
			return nil, bad("creds=%s: %v", creds, err)
		}
		opts = append(opts, nats.UserCredentials(creds))
	case jwtFile != "" && seed == "":
		return nil, bad("jwt= needs nkey=, the seed file that signs the server's challenge")
	case jwtFile != "":
		if err := checkCreds(jwtFile, seed); err != nil {
			return nil, bad("jwt=%s, nkey=%s: %v", jwtFile, seed, err)
		}
		opts = append(opts, nats.UserCredentials(jwtFile, seed))
	case seed != "":
		o, err := nats.NkeyOptionFromSeed(seed)
		if err != nil {
			return nil, bad("nkey=%s: %v", seed, err)
		}
		opts = append(opts, o)
	}
	cfg, err := t.tlsConfig()
	if err != nil {
		return nil, bad("%v", err)
	}
	if cfg != nil {
		opts = append(opts, nats.Secure(cfg))
	}
	return opts, nil
}

// Connect dials the servers with the URL's options (reconnecting
// forever once connected, as a long-running worker must) and refuses a
// server whose version is known to break exactly-once (CheckServerVersion),
// at connect and at each reconnect.
// name is the connection's name on the server (`nats server report
// connections`).
func (t *NATSTarget) Connect(name string) (*nats.Conn, error) {
	opts, err := t.Options()
	if err != nil {
		return nil, err
	}
	opts = append(opts, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectHandler(refuseOldServer))
	nc, err := nats.Connect(t.ServerList(), opts...)
	if err != nil {
		// The servers carry no user info (Options has it).
		return nil, fmt.Errorf("connecting to %s: %w", t.ServerList(), connectErr(err))
	}
	if err := CheckServerVersion(nc.ConnectedServerVersion()); err != nil {
		addr := nc.ConnectedUrlRedacted()
		nc.Close()
		return nil, fmt.Errorf("connecting to %s: %w", addr, err)
	}
	return nc, nil
}

// refuseOldServer closes a connection that reconnected to a server
// CheckServerVersion refuses (a node of a cluster not yet upgraded):
// what the caller does next fails as unreachable, and the stream's
// retry opens again, which refuses that server by name or reaches
// another.
func refuseOldServer(nc *nats.Conn) {
	if CheckServerVersion(nc.ConnectedServerVersion()) != nil {
		nc.Close()
	}
}

// tlsConfig is the TLS of ca=, cert= and key=, or of a tls:// server
// (the system's roots); nil for plain nats://.
func (t *NATSTarget) tlsConfig() (*tls.Config, error) {
	q := t.Query
	ca, cert, key := q.Get("ca"), q.Get("cert"), q.Get("key")
	if !t.secure && ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("ca=%s: %w", ca, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("ca=%s: no PEM certificate in it", ca)
		}
		cfg.RootCAs = pool
	}
	if (cert == "") != (key == "") {
		return nil, fmt.Errorf("cert= and key= go together (the client certificate and its private key)")
	}
	if cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("cert=%s, key=%s: %w", cert, key, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// checkCreds reads a user JWT (raw or decorated, as in a creds file) and
// an NKey seed, as the client will at each connect.
func checkCreds(jwtFile, seedFile string) error {
	b, err := os.ReadFile(jwtFile)
	if err != nil {
		return err
	}
	// A JWT is three base64url parts; the parser takes anything else
	// for a raw one.
	if j, err := nkeys.ParseDecoratedJWT(b); err != nil || strings.Count(j, ".") != 2 || strings.ContainsAny(j, " \n") {
		return fmt.Errorf("no user JWT in %s", jwtFile)
	}
	s, err := os.ReadFile(seedFile)
	if err != nil {
		return err
	}
	kp, err := nkeys.ParseDecoratedNKey(s)
	if err != nil {
		return fmt.Errorf("no NKey seed in %s", seedFile)
	}
	kp.Wipe()
	return nil
}
