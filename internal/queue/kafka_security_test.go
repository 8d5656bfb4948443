package queue

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/javabroker"
)

// TestKafkaSecurityAndBacklog, against a real Kafka broker: a group
// member authenticates on the SASL listener with PLAIN and with
// SCRAM-SHA-256 (a wrong password is refused, and the error shows no
// password), its Backlog counts the records the group has not
// acknowledged (pending, then held by it, then none), and available_now
// sees the end of the topic only when the backlog says so.
func TestKafkaSecurityAndBacklog(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Kafka")
	}
	b, err := javabroker.StartKafka()
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	defer b.Stop()
	produce := kafkaProducer(t, b.Addr)
	ctx := context.Background()
	receiveAll := func(q Queue, n int) []Message {
		t.Helper()
		var got []Message
		for deadline := time.Now().Add(30 * time.Second); len(got) < n; {
			msgs, err := q.Receive(ctx, 10, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, msgs...)
			if time.Now().After(deadline) {
				t.Fatalf("received %d of %d", len(got), n)
			}
		}
		return got
	}

	for _, mech := range []string{"plain", "scram-sha-256"} {
		t.Run(mech, func(t *testing.T) {
			topic := "sasl-" + mech
			produce(topic, 0, "a", "b")
			raw := fmt.Sprintf("kafka://%s:%s@%s/%s/g?sasl=%s", javabroker.KafkaUser, javabroker.KafkaPassword, b.SASLAddr, topic, mech)
			q, err := Open(ctx, raw)
			if err != nil {
				t.Fatal(err)
			}
			got := receiveAll(q, 2)
			if err := q.Ack(ctx, got); err != nil {
				t.Fatal(err)
			}
			q.Close()

			u, _ := url.Parse(raw)
			u.User = url.UserPassword(javabroker.KafkaUser, "wrong-secret")
			_, rerr := Open(ctx, u.String())
			if rerr == nil || !errors.Is(rerr, ErrUnreachable) {
				t.Fatalf("a wrong password: %v, want it refused", rerr)
			}
			t.Logf("wrong password: %v", rerr)
			if strings.Contains(rerr.Error(), "wrong-secret") {
				t.Errorf("the error shows the password: %v", rerr)
			}
		})
	}

	t.Run("backlog", func(t *testing.T) {
		produce("backlog", 0, "1", "2", "3")
		produce("backlog", 1, "4")
		u, _ := url.Parse("kafka://" + b.Addr + "/backlog/g")
		q, err := OpenKafka(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer q.Close()
		bl, err := q.Backlog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if bl != (Backlog{Pending: 4}) {
			t.Errorf("before receiving: %+v, want 4 pending", bl)
		}
		got := receiveAll(q, 4)
		if bl, _ = q.Backlog(ctx); bl != (Backlog{Unacked: 4}) {
			t.Errorf("all held: %+v, want 4 unacked", bl)
		}
		if err := q.Ack(ctx, got); err != nil {
			t.Fatal(err)
		}
		if bl, _ = q.Backlog(ctx); bl != (Backlog{}) {
			t.Errorf("all acknowledged: %+v, want none", bl)
		}
		produce("backlog", 1, "5")
		if bl, _ = q.Backlog(ctx); bl != (Backlog{Pending: 1}) {
			t.Errorf("one more: %+v, want 1 pending", bl)
		}
	})
}

func TestKafkaSecurityOptions(t *testing.T) {
	for raw, want := range map[string]string{
		"kafka://h/t/g?sasl=plain":                     "needs user:password",
		"kafka://u:p@h/t/g?sasl=gssapi":                "want plain, scram-sha-256 or scram-sha-512",
		"kafka://h/t/g?tls=maybe":                      "want true or false",
		"kafka://h/t/g?ca_file=/nonexistent/ca.pem":    "ca_file",
		"kafka://h/t/g?cert_file=/tmp/c.pem":           "go together",
		"kafka://u:s3cr3t@h/t/g?sasl=x&tls=true":       "want plain",
		"kafka://h/t/g?insecure_skip_verify=sometimes": "want true or false",
	} {
		u, _ := url.Parse(raw)
		_, err := kafkaSecurity(u)
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrBadURL) {
			t.Errorf("%s: %v, want ErrBadURL saying %q", raw, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: the error shows the password: %v", raw, err)
		}
	}
	for raw, n := range map[string]int{
		"kafka://h/t/g":     0,
		"kafka://u:p@h/t/g": 1, // SASL PLAIN
		"kafka://u:p@h/t/g?sasl=scram-sha-512&tls=true":  2,
		"kafka://h/t/g?tls=true&server_name=kafka.local": 1,
		"kafka://h/t/g?insecure_skip_verify=true":        1,
		"kafka://u:p@h/t/g?sasl=SCRAM-SHA-256":           1,
	} {
		u, _ := url.Parse(raw)
		opts, err := kafkaSecurity(u)
		if err != nil || len(opts) != n {
			t.Errorf("%s: %d options, %v; want %d", raw, len(opts), err, n)
		}
	}
}
