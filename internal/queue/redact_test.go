package queue

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestRedact: no credential of a queue URL reaches a message, whatever
// its form; ${env:VAR} references, which name no secret, stay readable.
func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"sqs://AK:SK@h/1/q", "sqs://AK:xxxxx@h/1/q"},
		{"nats://s3cr3tTOKEN@h:4222/S/C", "nats://xxxxx@h:4222/S/C"},
		{"tls://s3cr3tTOKEN@h:4222/S/C", "tls://xxxxx@h:4222/S/C"},
		{"nats://u:s3cr3t@h:4222/S/C", "nats://u:xxxxx@h:4222/S/C"},
		{"nats://h:4222/S/C?token=s3cr3t&ack_wait=30s", "nats://h:4222/S/C?ack_wait=30s&token=xxxxx"},
		{"kafka://b:9092/t/g?sasl_password=s3cr3t", "kafka://b:9092/t/g?sasl_password=xxxxx"},
		{"nats://${env:NATS_TOKEN}@h:4222/S/C", "nats://${env:NATS_TOKEN}@h:4222/S/C"},
		{"nats://u:${env:NATS_PW}@h:4222/S/C", "nats://u:${env:NATS_PW}@h:4222/S/C"},
		{"nats://h:4222/S/C?token=${env:T}", "nats://h:4222/S/C?token=${env:T}"},
		{"kafka://user@b:9092/t/g", "kafka://user@b:9092/t/g"},
	} {
		got := Redact(c.in)
		if got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
		if strings.Contains(got, "s3cr3t") {
			t.Errorf("Redact(%q) shows the secret: %q", c.in, got)
		}
	}
}

// TestOpenExpandsEnv: the queue URL's ${env:VAR} references are
// resolved when it is opened, and a missing variable is named.
func TestOpenExpandsEnv(t *testing.T) {
	t.Setenv("SLUICE_TEST_Q_SCHEME", "bogus")
	_, err := Open(context.Background(), "${env:SLUICE_TEST_Q_SCHEME}://h/S/C")
	if !errors.Is(err, ErrBadURL) || !strings.Contains(err.Error(), "bogus://") {
		t.Errorf("expanded URL not used: %v", err)
	}
	_, err = Open(context.Background(), "nats://${env:SLUICE_TEST_Q_UNSET}@h:1/S/C")
	if err == nil || !strings.Contains(err.Error(), "SLUICE_TEST_Q_UNSET is not set") {
		t.Errorf("missing variable: %v", err)
	}
}

// TestRedactNATSServers: each server of a NATS list is redacted, in both
// list forms, and its file options (paths, no secrets) stay readable.
func TestRedactNATSServers(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"nats://u:s3cr3t@h1:1,nats://h2:2/S/C?creds=/etc/u.creds", "nats://u:xxxxx@h1:1,nats://h2:2/S/C?creds=/etc/u.creds"},
		{"nats://h1:1,nats://u:s3cr3t@h2:2/S/C", "nats://h1:1,nats://u:xxxxx@h2:2/S/C"},
		{"nats://h1:1,s3cr3tTOKEN@h2:2/S/C", "nats://h1:1,xxxxx@h2:2/S/C"},
		{"tls://h1:1,tls://h2:2/S/C?token=s3cr3t", "tls://h1:1,tls://h2:2/S/C?token=xxxxx"},
		{"nats://u:${env:PW}@h1:1,h2:2/S/C", "nats://u:${env:PW}@h1:1,h2:2/S/C"},
	} {
		got := Redact(c.in)
		if got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
		if strings.Contains(got, "s3cr3t") {
			t.Errorf("Redact(%q) shows the secret: %q", c.in, got)
		}
	}
}
