package queue

import (
	"context"
	"net/url"
	"testing"

	"sluice/internal/testutil/natsserver"
)

func TestNATSContract(t *testing.T) {
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("events", "s3.>"); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(ns.URL + "/events/sluice?ack_wait=1s")
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
	u2, _ := url.Parse(ns.URL + "/nope/sluice")
	if _, err := OpenNATS(context.Background(), u2); err == nil {
		t.Fatal("opened a consumer on a missing stream")
	}
}
