package queue

import (
	"context"
	"errors"
	"testing"
	"time"

	"sluice/internal/testutil/natsserver"
)

func TestNATSContract(t *testing.T) {
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("events", "s3.>"); err != nil {
		t.Fatal(err)
	}
	u := ns.URL + "/events/sluice?ack_wait=1s"
	open := func() Queue {
		q, err := OpenNATS(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	contract(t, open, func(m string) {
		if err := ns.Publish("s3.put", []byte(m)); err != nil {
			t.Fatal(err)
		}
	})
	// A missing JetStream stream is a clear error.
	u2 := ns.URL + "/nope/sluice"
	if _, err := OpenNATS(context.Background(), u2); err == nil {
		t.Fatal("opened a consumer on a missing stream")
	}
}

// TestNATSNoRespondersUnreachable: a server that is back but whose
// JetStream does not answer yet (no responders) is an outage to wait
// out, not an error that ends the stream: Receive says ErrUnreachable
// once the connection is up again.
func TestNATSNoRespondersUnreachable(t *testing.T) {
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("events", "s3.>"); err != nil {
		t.Fatal(err)
	}
	u := ns.URL + "/events/sluice"
	q, err := OpenNATS(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	ns.Down()
	if err := ns.UpWithoutJetStream(); err != nil {
		t.Fatal(err)
	}
	defer ns.Down()
	for deadline := time.Now().Add(10 * time.Second); q.Check() != nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no reconnection: %v", q.Check())
		}
	}
	_, err = q.Receive(context.Background(), 10, 200*time.Millisecond)
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("Receive from a server without JetStream: %v, want ErrUnreachable", err)
	}
	t.Log(err)
}
