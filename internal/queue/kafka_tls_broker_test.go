package queue

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/javabroker"
)

// testCA is a certificate authority of a test's own.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newTestCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue signs a certificate for name with usage and returns its PEM
// certificate and PKCS#8 key.
func (ca *testCA) issue(t *testing.T, serial int64, name string, usage x509.ExtKeyUsage) (certPEM, keyPEM []byte) {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, err := x509.CreateCertificate(rand.Reader, &x509.Certificate{SerialNumber: big.NewInt(serial),
		Subject: pkix.Name{CommonName: name}, DNSNames: []string{name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{usage}}, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	p8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p8})
}

// TestKafkaTLSBroker: a kafka:// URL's TLS settings against a real
// broker's SSL listener that requires client certificates, all from a
// CA the test makes. With ca_file, cert_file, key_file and server_name
// (the broker's certificate names kafka.test only) a member reads what
// was produced; without server_name, trusting another CA, or without a
// client certificate, opening fails as unreachable, saying why.
func TestKafkaTLSBroker(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Kafka")
	}
	dir := t.TempDir()
	write := func(name string, parts ...[]byte) string {
		t.Helper()
		p := filepath.Join(dir, name)
		var all []byte
		for _, b := range parts {
			all = append(all, b...)
		}
		if err := os.WriteFile(p, all, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ca := newTestCA(t, "sluice test CA")
	brokerCert, brokerKey := ca.issue(t, 2, "kafka.test", x509.ExtKeyUsageServerAuth)
	clientCert, clientKey := ca.issue(t, 3, "sluice", x509.ExtKeyUsageClientAuth)
	other := newTestCA(t, "another CA")
	caFile, otherFile := write("ca.pem", ca.pem), write("other-ca.pem", other.pem)
	certFile, keyFile := write("client.pem", clientCert), write("client-key.pem", clientKey)

	b, err := javabroker.StartKafkaTLS(javabroker.KafkaTLS{
		Keystore: write("broker-keystore.pem", brokerKey, brokerCert), Truststore: write("broker-truststore.pem", ca.pem)})
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	defer b.Stop()
	kafkaProducer(t, b.Addr)("tls", 0, "over tls")
	open := func(query string) (Queue, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return Open(ctx, "kafka://"+b.SSLAddr+"/tls/g?"+query)
	}
	q := url.QueryEscape
	good := "ca_file=" + q(caFile) + "&cert_file=" + q(certFile) + "&key_file=" + q(keyFile) + "&server_name=kafka.test"

	qu, err := open(good)
	if err != nil {
		t.Fatalf("mutual TLS with server_name: %v", err)
	}
	var got []string
	for deadline := time.Now().Add(30 * time.Second); len(got) == 0 && time.Now().Before(deadline); {
		msgs, err := qu.Receive(context.Background(), 10, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			got = append(got, string(m.Data()))
		}
	}
	qu.Close()
	if strings.Join(got, ",") != "over tls" {
		t.Fatalf("received %q over TLS, want the produced record", got)
	}

	for _, c := range []struct{ what, query, says string }{
		{"without server_name (the certificate names kafka.test)", "ca_file=" + q(caFile) + "&cert_file=" + q(certFile) + "&key_file=" + q(keyFile), "certificate for 127.0.0.1"},
		{"trusting another CA", "ca_file=" + q(otherFile) + "&cert_file=" + q(certFile) + "&key_file=" + q(keyFile) + "&server_name=kafka.test", "unknown authority"},
		{"without a client certificate", "ca_file=" + q(caFile) + "&server_name=kafka.test", "remote error: tls"},
	} {
		qu, err := open(c.query)
		if err == nil {
			qu.Close()
			t.Errorf("%s: opened, want refused", c.what)
			continue
		}
		t.Logf("%s: %v", c.what, err)
		if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want queue unreachable saying %q", c.what, err, c.says)
		}
	}
}
