package queue

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/testutil/natsserver"
)

// TestNATSClusterFailover: a consumer on an R3 stream of a 3-node
// cluster, opened with the server list, keeps receiving after the node
// it is connected to dies: the client moves to another server of the
// list, and messages published meanwhile arrive once acknowledged.
func TestNATSClusterFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node NATS cluster")
	}
	cl := natsserver.StartCluster(t, 3)
	if err := cl.AddStream("events", 3, "s3.>"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	q, err := OpenNATS(ctx, strings.ReplaceAll(cl.URL, ",", ",nats://")+"/events/sluice?ack_wait=5s")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	var victim, other *natsserver.Server
	for _, s := range cl.Servers {
		if s.URL == q.nc.ConnectedUrl() {
			victim = s
		} else if other == nil {
			other = s
		}
	}
	if victim == nil {
		t.Fatalf("connected to %s, not one of the cluster", q.nc.ConnectedUrl())
	}
	t0 := time.Now()
	victim.Down()
	// Publish through another node until the stream takes it (its
	// leader may have been the victim).
	for i := 0; i < 3; i++ {
		for {
			if err := publishJS(ctx, other, "s3.put", "m"+strconv.Itoa(i)); err == nil {
				break
			} else if ctx.Err() != nil {
				t.Fatalf("publishing: %v", err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	got := map[string]bool{}
	for len(got) < 3 {
		if ctx.Err() != nil {
			t.Fatalf("got %v after %s", got, time.Since(t0))
		}
		msgs, err := q.Receive(ctx, 10, time.Second)
		if err != nil {
			time.Sleep(200 * time.Millisecond) // reconnecting
			continue
		}
		if len(msgs) > 0 && q.Ack(ctx, msgs) != nil {
			continue // not acknowledged: redelivered
		}
		for _, m := range msgs {
			got[string(m.Data())] = true
		}
	}
	t.Logf("node down to all 3 messages received and acknowledged: %s", time.Since(t0).Round(time.Millisecond))
}

// publishJS publishes with a JetStream acknowledgement through s.
func publishJS(ctx context.Context, s *natsserver.Server, subject, data string) error {
	return natsserver.WithJetStream(s.URL, nil, func(js jetstream.JetStream) error {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		_, err := js.Publish(pctx, subject, []byte(data))
		return err
	})
}
