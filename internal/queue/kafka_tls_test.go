package queue

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// TestKafkaTLSHandshake: the TLS settings of a kafka:// URL reach the
// wire. A TLS listener with a certificate for kafka.test (signed by a
// CA of the test's own) completes a handshake with a client given that
// CA and server_name, and refuses one trusting only the system roots or
// expecting the dialled address's name.
func TestKafkaTLSHandshake(t *testing.T) {
	dir := t.TempDir()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sluice test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, err := x509.CreateCertificate(rand.Reader, &x509.Certificate{SerialNumber: big.NewInt(2),
		Subject: pkix.Name{CommonName: "kafka.test"}, DNSNames: []string{"kafka.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	results := make(chan error, 64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(5 * time.Second))
				results <- c.(*tls.Conn).Handshake()
			}(c)
		}
	}()
	handshake := func(query string) error {
		t.Helper()
		for len(results) > 0 { // the previous client's retries
			<-results
		}
		u, _ := url.Parse("kafka://" + ln.Addr().String() + "/t/g?" + query)
		opts, err := kafkaSecurity(u)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := kgo.NewClient(append(opts, kgo.SeedBrokers(ln.Addr().String()))...)
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = cl.Ping(ctx) // no Kafka behind the handshake: only the handshake counts
		select {
		case err := <-results:
			return err
		case <-time.After(3 * time.Second):
			return context.DeadlineExceeded
		}
	}
	if err := handshake("ca_file=" + url.QueryEscape(caFile) + "&server_name=kafka.test"); err != nil {
		t.Errorf("with the CA and server name: handshake %v", err)
	}
	if err := handshake("tls=true&server_name=kafka.test"); err == nil {
		t.Error("trusting the system roots only, the test CA's certificate was accepted")
	}
	if err := handshake("ca_file=" + url.QueryEscape(caFile)); err == nil {
		t.Error("a certificate for kafka.test was accepted for 127.0.0.1")
	}
}
