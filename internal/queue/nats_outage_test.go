package queue

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"sluice/internal/testutil/natsserver"
	"sluice/internal/usererr"
)

// TestNATSOutage: an embedded JetStream server shut down and started
// again under an open consumer meets the outage contract: unreachable
// while down, nothing acknowledged lost or repeated after.
func TestNATSOutage(t *testing.T) {
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("events", "s3.>"); err != nil {
		t.Fatal(err)
	}
	u := ns.URL + "/events/sluice?ack_wait=2s"
	outageContract(t, func(ctx context.Context) (Queue, error) { return OpenNATS(ctx, u) },
		func(m string) {
			if err := ns.Publish("s3.put", []byte(m)); err != nil {
				t.Fatal(err)
			}
		}, ns.Down, ns.Up)
}

// TestNATSWrongPassword: a password the server refuses fails the open
// at once, as a user error that names the refusal, is not
// ErrUnreachable (which would be retried forever) and shows no
// password.
func TestNATSWrongPassword(t *testing.T) {
	ns, err := natsserver.StartWith(t.TempDir(), func(o *server.Options) { o.Username, o.Password = "sluice", "right-4711" })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Stop)
	host := strings.TrimPrefix(ns.URL, "nats://")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	t0 := time.Now()
	_, err = Open(ctx, "nats://sluice:wrong-0815@"+host+"/events/sluice")
	took := time.Since(t0)
	if err == nil {
		t.Fatal("opened with a wrong password")
	}
	t.Logf("%s: %v", took, err)
	if errors.Is(err, ErrUnreachable) || !errors.Is(err, ErrDenied) || !usererr.IsUser(err) {
		t.Errorf("wrong password: %v, want ErrDenied (a user error), not ErrUnreachable", err)
	}
	if strings.Contains(err.Error(), "wrong-0815") {
		t.Errorf("the error shows the password: %v", err)
	}
	if took > 5*time.Second {
		t.Errorf("refusal took %s, want it at once", took)
	}
	// The right one opens (the stream is missing: not a denial).
	_, err = Open(ctx, "nats://sluice:right-4711@"+host+"/events/sluice")
	if err == nil || errors.Is(err, ErrDenied) {
		t.Errorf("right password on a missing stream: %v, want a missing-stream error", err)
	}
}

// TestNATSTokenFromEnv: a token server, the token given as
// nats://${env:VAR}@host, is reached with the variable's value, and a
// wrong token's error shows neither token.
func TestNATSTokenFromEnv(t *testing.T) {
	ns, err := natsserver.StartWith(t.TempDir(), func(o *server.Options) { o.Authorization = "tok-4711" })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Stop)
	host := strings.TrimPrefix(ns.URL, "nats://")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	t.Setenv("SLUICE_TEST_NATS_TOKEN", "tok-0815")
	_, err = Open(ctx, "nats://${env:SLUICE_TEST_NATS_TOKEN}@"+host+"/events/sluice")
	if !errors.Is(err, ErrDenied) || strings.Contains(err.Error(), "tok-0815") {
		t.Errorf("wrong token: %v, want ErrDenied without the token", err)
	}
	t.Setenv("SLUICE_TEST_NATS_TOKEN", "tok-4711")
	_, err = Open(ctx, "nats://${env:SLUICE_TEST_NATS_TOKEN}@"+host+"/events/sluice")
	if err == nil || errors.Is(err, ErrDenied) || strings.Contains(err.Error(), "tok-4711") {
		t.Errorf("right token on a missing stream: %v, want a missing-stream error without the token", err)
	}
}
