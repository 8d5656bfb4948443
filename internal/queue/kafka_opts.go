package queue

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// kafkaSecurity reads a kafka:// URL's TLS and SASL settings:
//
//	kafka://user:password@host:9093/<topic>/<group>?sasl=scram-sha-512&tls=true
//
//	tls=true                  connect over TLS (system roots unless ca_file)
//	ca_file=/path/ca.pem      trust these CAs (implies tls)
//	cert_file=, key_file=     a client certificate (implies tls)
//	insecure_skip_verify=true do not verify the broker's certificate
//	server_name=NAME          the name its certificate must carry
//	sasl=plain|scram-sha-256|scram-sha-512  authenticate as the URL's user
//
// A user in the URL without sasl= means sasl=plain.
func kafkaSecurity(u *url.URL) ([]kgo.Opt, error) {
	q := u.Query()
	var opts []kgo.Opt
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrBadURL, Redact(u.String()), fmt.Sprintf(format, args...))
	}
	flag := func(name string) (bool, error) {
		switch strings.ToLower(q.Get(name)) {
		case "", "false", "0", "no":
			return false, nil
		case "true", "1", "yes":
			return true, nil
		}
		return false, bad("%s=%q: want true or false", name, q.Get(name))
	}
	useTLS, err := flag("tls")
	if err != nil {
		return nil, err
	}
	skip, err := flag("insecure_skip_verify")
	if err != nil {
		return nil, err
	}
	caFile, certFile, keyFile := q.Get("ca_file"), q.Get("cert_file"), q.Get("key_file")
	if useTLS || skip || caFile != "" || certFile != "" || q.Get("server_name") != "" {
		cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: skip, ServerName: q.Get("server_name")} //nolint:gosec // asked for by the URL
		if caFile != "" {
			pem, err := os.ReadFile(caFile)
			if err != nil {
				return nil, bad("ca_file: %v", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return nil, bad("ca_file %s holds no PEM certificate", caFile)
			}
			cfg.RootCAs = pool
		}
		if (certFile == "") != (keyFile == "") {
			return nil, bad("cert_file and key_file go together")
		}
		if certFile != "" {
			c, err := tls.LoadX509KeyPair(certFile, keyFile)
			if err != nil {
				return nil, bad("client certificate: %v", err)
			}
			cfg.Certificates = []tls.Certificate{c}
		}
		opts = append(opts, kgo.DialTLSConfig(cfg))
	}
	mech := strings.ToLower(q.Get("sasl"))
	if mech == "" && u.User != nil {
		mech = "plain"
	}
	if mech == "" {
		return opts, nil
	}
	if u.User == nil || u.User.Username() == "" {
		return nil, bad("sasl=%s needs user:password@ in the URL", mech)
	}
	user := u.User.Username()
	pass, _ := u.User.Password()
	var m sasl.Mechanism
	switch mech {
	case "plain":
		m = plain.Auth{User: user, Pass: pass}.AsMechanism()
	case "scram-sha-256":
		m = scram.Auth{User: user, Pass: pass}.AsSha256Mechanism()
	case "scram-sha-512":
		m = scram.Auth{User: user, Pass: pass}.AsSha512Mechanism()
	default:
		return nil, bad("sasl=%q: want plain, scram-sha-256 or scram-sha-512", mech)
	}
	return append(opts, kgo.SASL(m)), nil
}
