package queue

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/connector"
	"sluice/internal/testutil/natsserver"
)

// TestNATSReplicas on a 3-node JetStream cluster: the objects Sluice
// creates take the discovery stream's replica count (or ?replicas=);
// existing ones are never scaled, up or down, only warned about, naming
// the object and both counts.
func TestNATSReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node NATS cluster")
	}
	cl := natsserver.StartCluster(t, 3)
	if err := cl.AddStream("events", 3, "s3.>"); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var warnings []string
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ctx = connector.WithWarn(ctx, func(m string) { mu.Lock(); warnings = append(warnings, m); mu.Unlock() })

	q, err := OpenNATS(ctx, cl.URL+"/events/sluice")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if q.Replicas() != 3 {
		t.Errorf("replicas %d, want the events stream's 3", q.Replicas())
	}
	if err := q.RequestStop(ctx); err != nil { // creates sluice_stop
		t.Fatal(err)
	}
	if r := streamReplicas(ctx, t, q.js, "KV_"+stopBucket); r != 3 {
		t.Errorf("%s has %d replicas, want 3", stopBucket, r)
	}
	q1, err := OpenNATS(ctx, cl.URL+"/events/sluice1?replicas=1")
	if err != nil {
		t.Fatal(err)
	}
	defer q1.Close()
	if q1.Replicas() != 1 {
		t.Errorf("?replicas=1: %d", q1.Replicas())
	}

	js := q.js
	// Missing: created with the count asked for.
	if _, err := EnsureStream(ctx, js, jetstream.StreamConfig{Name: "sluice-new", Subjects: []string{"sluice.new.>"}, Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	if r := streamReplicas(ctx, t, js, "sluice-new"); r != 3 {
		t.Errorf("sluice-new: %d replicas, want 3", r)
	}
	// An R3 stream someone set up is not scaled down to 1, nor an R1 one up.
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "sluice-pre3", Subjects: []string{"sluice.pre3.>"}, Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "sluice-pre1", Subjects: []string{"sluice.pre1.>"}, Replicas: 1}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	warnings = nil
	mu.Unlock()
	if _, err := EnsureStream(ctx, js, jetstream.StreamConfig{Name: "sluice-pre3", Subjects: []string{"sluice.pre3.>"}, Replicas: 1, MaxMsgsPerSubject: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := EnsureStream(ctx, js, jetstream.StreamConfig{Name: "sluice-pre1", Subjects: []string{"sluice.pre1.>"}, Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	if r := streamReplicas(ctx, t, js, "sluice-pre3"); r != 3 {
		t.Errorf("sluice-pre3 scaled to %d", r)
	}
	if r := streamReplicas(ctx, t, js, "sluice-pre1"); r != 1 {
		t.Errorf("sluice-pre1 scaled to %d", r)
	}
	if st, _ := js.Stream(ctx, "sluice-pre3"); st == nil || st.CachedInfo().Config.MaxMsgsPerSubject == 1 {
		t.Errorf("sluice-pre3 reconfigured")
	}
	// A bucket likewise; one that matches is not warned about.
	if _, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "sluice-kv", Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := EnsureKeyValue(ctx, js, jetstream.KeyValueConfig{Bucket: "sluice-kv", Replicas: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := EnsureKeyValue(ctx, js, jetstream.KeyValueConfig{Bucket: "sluice-kv", Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	if r := streamReplicas(ctx, t, js, "KV_sluice-kv"); r != 3 {
		t.Errorf("sluice-kv scaled to %d", r)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"stream sluice-pre3 has 3 replica(s), not the 1 wanted", "stream sluice-pre1 has 1 replica(s), not the 3 wanted",
		"key-value bucket sluice-kv has 3 replica(s), not the 1 wanted"}
	if len(warnings) != len(want) {
		t.Fatalf("warnings %q, want %d", warnings, len(want))
	}
	for i, w := range want {
		if !strings.Contains(warnings[i], w) {
			t.Errorf("warning %q, want %q", warnings[i], w)
		}
	}
}

func streamReplicas(ctx context.Context, t *testing.T, js jetstream.JetStream, name string) int {
	t.Helper()
	st, err := js.Stream(ctx, name)
	if err != nil {
		t.Fatalf("stream %s: %v", name, err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return info.Config.Replicas
}
