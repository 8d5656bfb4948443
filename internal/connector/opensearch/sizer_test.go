package opensearch

import (
	"context"
	"testing"
	"time"
)

// TestSizer feeds the controller sequences of responses and checks the
// request size and the requests in flight after each: refusals halve both
// once per overload, fast clean responses grow them back by steps, slow
// ones hold, and the bounds hold.
func TestSizer(t *testing.T) {
	const mb = 1 << 20
	// ok, slow and no are responses to a request sent under generation
	// gen, sent bytes long.
	type ev struct {
		gen     int64
		sent    int
		refused bool
		latency time.Duration
	}
	ok := func(gen int64, sent int) ev { return ev{gen, sent, false, time.Second} }
	slow := func(gen int64, sent int) ev { return ev{gen, sent, false, 11 * time.Second} }
	no := func(gen int64, sent int) ev { return ev{gen, sent, true, time.Second} }
	type want struct{ bytes, limit int }
	step := (16*mb - minBulkBytes) / 16
	for _, c := range []struct {
		name      string
		max, conc int
		evs       []ev
		want      []want
	}{
		{"clean at the top holds", 16 * mb, 4,
			[]ev{ok(0, 16*mb), ok(0, 16*mb)},
			[]want{{16 * mb, 4}, {16 * mb, 4}}},
		{"a refusal halves size and in flight", 16 * mb, 4,
			[]ev{no(0, 16*mb)},
			[]want{{8 * mb, 2}}},
		{"from the refused request's size, not the target", 16 * mb, 4,
			[]ev{no(0, 2*mb)},
			[]want{{1 * mb, 2}}},
		{"one overload shrinks once", 16 * mb, 4,
			// Three requests in flight under generation 0 refused together;
			// then one sent after the decrease (generation 1) is refused too.
			[]ev{no(0, 16*mb), no(0, 16*mb), no(0, 16*mb), no(1, 8*mb)},
			[]want{{8 * mb, 2}, {8 * mb, 2}, {8 * mb, 2}, {4 * mb, 1}}},
		{"floors", 256 << 10, 2,
			[]ev{no(0, 256<<10), no(1, 128<<10), no(2, 64<<10), no(3, 64<<10)},
			[]want{{128 << 10, 1}, {64 << 10, 1}, {64 << 10, 1}, {64 << 10, 1}}},
		{"fast clean responses grow: bytes each, in flight per window", 16 * mb, 4,
			[]ev{no(0, 16*mb), ok(1, 8*mb), ok(1, 8*mb), ok(1, 8*mb), ok(1, 8*mb), ok(1, 8*mb)},
			[]want{{8 * mb, 2}, {8*mb + step, 2}, {8*mb + 2*step, 3}, {8*mb + 3*step, 3}, {8*mb + 4*step, 3}, {8*mb + 5*step, 4}}},
		{"slow clean responses hold", 16 * mb, 4,
			[]ev{no(0, 16*mb), slow(1, 8*mb), slow(1, 8*mb), slow(1, 8*mb)},
			[]want{{8 * mb, 2}, {8 * mb, 2}, {8 * mb, 2}, {8 * mb, 2}}},
		{"growth stops at the bounds", 1 * mb, 1,
			[]ev{no(0, 1*mb), ok(1, 512<<10), ok(1, 512<<10), ok(1, 512<<10), ok(1, 512<<10), ok(1, 512<<10), ok(1, 512<<10),
				ok(1, 512<<10), ok(1, 512<<10), ok(1, 512<<10)},
			[]want{{512 << 10, 1}, {512<<10 + 60<<10, 1}, {512<<10 + 120<<10, 1}, {512<<10 + 180<<10, 1}, {512<<10 + 240<<10, 1},
				{512<<10 + 300<<10, 1}, {512<<10 + 360<<10, 1}, {512<<10 + 420<<10, 1}, {512<<10 + 480<<10, 1}, {1 * mb, 1}}},
		{"a refusal after growth halves again", 16 * mb, 4,
			[]ev{no(0, 16*mb), ok(1, 8*mb), ok(1, 8*mb), no(1, 8*mb+step)},
			[]want{{8 * mb, 2}, {8*mb + step, 2}, {8*mb + 2*step, 3}, {(8*mb + step) / 2, 1}}},
		{"a tiny maximum is its own minimum", 10 << 10, 1,
			[]ev{no(0, 10<<10), ok(1, 10<<10)},
			[]want{{10 << 10, 1}, {10 << 10, 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSizer(c.max, c.conc, 10*time.Second)
			for i, e := range c.evs {
				s.observe(e.gen, e.sent, e.refused, e.latency)
				if b, l := s.state(); b != c.want[i].bytes || l != c.want[i].limit {
					t.Fatalf("after response %d %+v: size %d, in flight %d; want %d, %d", i, e, b, l, c.want[i].bytes, c.want[i].limit)
				}
				if s.size() != c.want[i].bytes {
					t.Fatalf("size() = %d, state says %d", s.size(), c.want[i].bytes)
				}
			}
		})
	}
}

// TestSizerSlots checks that acquire admits only the limit in flight,
// hands out the generation, lets a waiter in when a slot is released,
// and gives up when its context ends.
func TestSizerSlots(t *testing.T) {
	s := newSizer(1<<20, 2, time.Second)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if g, err := s.acquire(ctx); err != nil || g != 0 {
			t.Fatalf("acquire %d: %d, %v", i, g, err)
		}
	}
	s.observe(0, 1<<20, true, 0) // limit 1, generation 1
	got := make(chan int64, 1)
	go func() {
		g, err := s.acquire(ctx)
		if err != nil {
			t.Error(err)
		}
		got <- g
	}()
	s.release() // one in flight: still at the limit of 1
	select {
	case <-got:
		t.Fatal("acquired beyond the limit")
	case <-time.After(50 * time.Millisecond):
	}
	s.release()
	select {
	case g := <-got:
		if g != 1 {
			t.Errorf("generation %d, want 1", g)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a released slot was not handed on")
	}
	cctx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() { _, err := s.acquire(cctx); errc <- err }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-errc:
		if err == nil {
			t.Error("acquire after cancel: no error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("acquire did not return when its context ended")
	}
}
