package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"sluice/internal/testutil/faultproxy"
)

// TestS3ThroughFaults reads, lists and writes through a proxy that
// answers 503 SlowDown, cuts bodies off and adds latency, and checks the
// bytes are exactly those read directly.
func TestS3ThroughFaults(t *testing.T) {
	t.Parallel()
	direct := newS3Bucket(t, Options{})
	ctx := t.Context()
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 40
	want := map[string][]byte{}
	for i := 0; i < n; i++ {
		size := rng.IntN(300 << 10)
		if i%10 == 0 {
			size = 2<<20 + rng.IntN(1<<20)
		}
		b := make([]byte, size)
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		key := fmt.Sprintf("obj/%03d", i)
		want[key] = b
		if err := direct.Put(ctx, key, bytes.NewReader(b), false); err != nil {
			t.Fatal(err)
		}
	}

	p, err := faultproxy.Start(s3srv.Endpoint, faultproxy.Config{
		SlowDownRate: 0.2, ResetRate: 0.3, Latency: time.Millisecond, Seed: 42,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	flaky := newS3Store(t, direct.Bucket(), Options{Endpoint: p.URL, MaxRetries: 10, RetryMaxBackoff: 20 * time.Millisecond})
	flaky.listPageSize = 7 // many pages, each one a chance to fail

	var keys []string
	if err := flaky.List(ctx, "obj/", "", func(o ObjectInfo) error {
		if int64(len(want[o.Key])) != o.Size {
			return fmt.Errorf("%s: listed size %d, want %d", o.Key, o.Size, len(want[o.Key]))
		}
		keys = append(keys, o.Key)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(keys) != n {
		t.Fatalf("listed %d keys, want %d", len(keys), n)
	}

	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, key := range keys {
		g.Go(func() error {
			rc, err := flaky.Open(gctx, key)
			if err != nil {
				return err
			}
			defer rc.Close()
			got, err := io.ReadAll(rc)
			if err != nil {
				return err
			}
			if !bytes.Equal(got, want[key]) {
				return fmt.Errorf("%s: %d bytes through the proxy differ from the %d written", key, len(got), len(want[key]))
			}
			// A ranged read through the same faults.
			if len(got) > 100 {
				off := int64(len(got) / 3)
				rc, err := flaky.OpenRange(gctx, key, off, 50)
				if err != nil {
					return err
				}
				part, err := io.ReadAll(rc)
				rc.Close()
				if err != nil || !bytes.Equal(part, want[key][off:off+50]) {
					return fmt.Errorf("%s: range differs (err %v)", key, err)
				}
			}
			return nil
		})
	}
	// Writes through 503s are retried too (bodies are rewindable).
	for i := 0; i < 10; i++ {
		g.Go(func() error {
			return flaky.Put(gctx, fmt.Sprintf("written/%d", i), strings.NewReader(strings.Repeat("x", i*1000)), false)
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	reqs, slow, resets := p.Stats()
	t.Logf("proxy: %d requests, %d SlowDown, %d resets", reqs, slow, resets)
	if slow == 0 || resets == 0 {
		t.Fatalf("no faults injected (%d slowdowns, %d resets): the test proved nothing", slow, resets)
	}
	for i := 0; i < 10; i++ {
		if info, err := direct.Stat(ctx, fmt.Sprintf("written/%d", i)); err != nil || info.Size != int64(i*1000) {
			t.Fatalf("written/%d: %+v %v", i, info, err)
		}
	}
}

// TestS3ResumeChangedObject checks that a read resumed after a cut does
// not splice two versions of an object together.
func TestS3ResumeChangedObject(t *testing.T) {
	t.Parallel()
	direct := newS3Bucket(t, Options{})
	ctx := context.Background()
	v1 := bytes.Repeat([]byte("1"), 1<<20)
	if err := direct.Put(ctx, "k", bytes.NewReader(v1), false); err != nil {
		t.Fatal(err)
	}
	p, err := faultproxy.Start(s3srv.Endpoint, faultproxy.Config{ResetRate: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	flaky := newS3Store(t, direct.Bucket(), Options{Endpoint: p.URL, MaxRetries: 3, RetryMaxBackoff: 10 * time.Millisecond})

	// Every body is cut, yet the object is read whole by resuming.
	rc, err := flaky.Open(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, v1) {
		t.Fatalf("resumed read: %d bytes, %v", len(got), err)
	}

	rc, err = flaky.Open(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	buf := make([]byte, 1)
	if _, err := io.ReadFull(rc, buf); err != nil {
		t.Fatal(err)
	}
	if err := direct.Put(ctx, "k", bytes.NewReader(bytes.Repeat([]byte("2"), 1<<20)), false); err != nil {
		t.Fatal(err)
	}
	got, err = io.ReadAll(rc)
	if err == nil {
		t.Fatalf("read of a changed object succeeded (%d bytes, has v2: %v)", len(got), bytes.Contains(got, []byte("2")))
	}
	t.Logf("changed object: %v", err)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("changed object: %v", err)
	}
}

// TestS3ReaderAtPinsVersion checks that random reads of a replaced object
// fail rather than mix versions.
func TestS3ReaderAtPinsVersion(t *testing.T) {
	t.Parallel()
	st := newS3Bucket(t, Options{})
	ctx := context.Background()
	put(t, st, "f", "version-one")
	ra := ReaderAt(ctx, st, "f", 11)
	p := make([]byte, 3)
	if n, err := ra.ReadAt(p, 8); err != nil || string(p[:n]) != "one" {
		t.Fatalf("ReadAt = %q, %v", p[:n], err)
	}
	put(t, st, "f", "version-two")
	if _, err := ra.ReadAt(p, 0); !errors.Is(err, ErrChanged) {
		t.Fatalf("ReadAt after replace = %v, want ErrChanged", err)
	}
	// A fresh ReaderAt sees the new version.
	if n, err := ReaderAt(ctx, st, "f", 11).ReadAt(p, 8); err != nil || string(p[:n]) != "two" {
		t.Fatalf("fresh ReadAt = %q, %v", p[:n], err)
	}
}

// TestS3RetryCap checks MaxRetries bounds the attempts and the final
// error is one readable line.
func TestS3RetryCap(t *testing.T) {
	t.Parallel()
	direct := newS3Bucket(t, Options{})
	p, err := faultproxy.Start(s3srv.Endpoint, faultproxy.Config{SlowDownRate: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	flaky := newS3Store(t, direct.Bucket(), Options{Endpoint: p.URL, MaxRetries: 2, RetryMaxBackoff: time.Millisecond})
	err = flaky.List(context.Background(), "", "", func(ObjectInfo) error { return nil })
	want := "listing s3://" + direct.Bucket() + "/: SlowDown: Please reduce your request rate."
	if err == nil || err.Error() != want {
		t.Fatalf("List through constant 503s = %v, want %q", err, want)
	}
	if reqs, _, _ := p.Stats(); reqs != 3 {
		t.Fatalf("%d requests, want 1 + MaxRetries(2)", reqs)
	}
}
