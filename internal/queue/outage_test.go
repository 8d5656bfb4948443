package queue

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"
)

// outageContract checks, against a real broker that goes down and comes
// back (down, up), that a receiver notices: Receive (and Check, where the
// queue has one) fails with ErrUnreachable instead of coming back empty,
// and keeps failing while the broker is down; opening the queue fails
// the same way; once the broker is back, a new receiver gets every
// message not acknowledged before the outage and the one published
// after, and never the acknowledged one.
func outageContract(t *testing.T, open func(context.Context) (Queue, error), publish func(string), down func(), up func() error) {
	t.Helper()
	ctx := context.Background()
	mustOpen := func(within time.Duration) Queue {
		t.Helper()
		deadline := time.Now().Add(within)
		for {
			q, err := open(ctx)
			if err == nil {
				return q
			}
			if time.Now().After(deadline) {
				t.Fatalf("opening the queue: %v", err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	publish("a")
	publish("b")
	q := mustOpen(30 * time.Second)
	got := map[string]Message{}
	for deadline := time.Now().Add(30 * time.Second); len(got) < 2; {
		msgs, err := q.Receive(ctx, 10, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			got[string(m.Data())] = m
		}
		if time.Now().After(deadline) {
			t.Fatalf("received %d of 2", len(got))
		}
	}
	if err := q.Ack(ctx, []Message{got["a"]}); err != nil {
		t.Fatal(err)
	}

	down()
	t0 := time.Now()
	var rerr error
	for deadline := time.Now().Add(20 * time.Second); rerr == nil; {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		msgs, err := q.Receive(rctx, 10, 200*time.Millisecond)
		cancel()
		if len(msgs) > 0 {
			t.Fatalf("received %d messages from a broker that is down", len(msgs))
		}
		rerr = err
		if time.Now().After(deadline) {
			t.Fatal("Receive kept coming back empty from a broker that is down")
		}
	}
	t.Logf("%s after the outage began: %v", time.Since(t0).Round(time.Millisecond), rerr)
	if !errors.Is(rerr, ErrUnreachable) {
		t.Errorf("Receive during the outage: %v, want ErrUnreachable", rerr)
	}
	if c, ok := q.(Checker); ok {
		if err := c.Check(); !errors.Is(err, ErrUnreachable) {
			t.Errorf("Check during the outage: %v, want ErrUnreachable", err)
		}
	}
	time.Sleep(time.Second)
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	if _, err := q.Receive(rctx, 10, 200*time.Millisecond); !errors.Is(err, ErrUnreachable) {
		t.Errorf("Receive a second later: %v, want ErrUnreachable still", err)
	}
	cancel()
	octx, cancel := context.WithTimeout(ctx, 30*time.Second)
	t1 := time.Now()
	if q2, err := open(octx); !errors.Is(err, ErrUnreachable) {
		t.Errorf("opening during the outage: %v, want ErrUnreachable", err)
		if err == nil {
			q2.Close()
		}
	} else {
		t.Logf("opening during the outage failed in %s: %v", time.Since(t1).Round(time.Millisecond), err)
	}
	cancel()
	q.Close()

	t2 := time.Now()
	if err := up(); err != nil {
		t.Fatal(err)
	}
	t.Logf("the broker took %s to start again", time.Since(t2).Round(time.Millisecond))
	t2 = time.Now()
	publish("c")
	q = mustOpen(60 * time.Second)
	defer q.Close()
	again := map[string]bool{}
	for deadline := time.Now().Add(60 * time.Second); (!again["b"] || !again["c"]) && time.Now().Before(deadline); {
		msgs, err := q.Receive(ctx, 10, time.Second)
		if err != nil && !errors.Is(err, ErrUnreachable) {
			t.Fatal(err)
		}
		for _, m := range msgs {
			again[string(m.Data())] = true
		}
	}
	t.Logf("%s after the broker was back: %v", time.Since(t2).Round(time.Millisecond), again)
	var keys []string
	for k := range again {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, ",") != "b,c" {
		t.Fatalf("after the outage received %v, want b and c (not the acked a)", keys)
	}
}
