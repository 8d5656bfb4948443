package partition

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/connector"
	"sluice/internal/testutil/natsserver"
)

// TestKeyedObjectsReplicas on a 3-node JetStream cluster: a keyed
// stream's partials stream, watermark stream and lease bucket are
// created with the replicas asked for; one that exists (an R1 partials
// stream of an earlier version) is kept as it is, with a warning naming
// it.
func TestKeyedObjectsReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node NATS cluster")
	}
	cl := natsserver.StartCluster(t, 3)
	nc, err := nats.Connect(cl.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var warnings []string
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ctx = connector.WithWarn(ctx, func(m string) { mu.Lock(); warnings = append(warnings, m); mu.Unlock() })

	if _, err := EnsureStream(ctx, js, "r3", 3); err != nil {
		t.Fatal(err)
	}
	if _, err := EnsureWatermarkStream(ctx, js, "r3", 3); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenLeases(ctx, js, BucketName("r3"), "a", 2, 5*time.Second, 3); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sluice-r3", "sluice-r3-wm", "KV_sluice-r3"} {
		if r := replicasOf(ctx, t, js, name); r != 3 {
			t.Errorf("%s: %d replicas, want 3", name, r)
		}
	}
	mu.Lock()
	if len(warnings) != 0 {
		t.Errorf("warnings for objects it created: %q", warnings)
	}
	mu.Unlock()

	if _, err := EnsureStream(ctx, js, "old", 0); err != nil { // R1, as before replicas
		t.Fatal(err)
	}
	if _, err := EnsureStream(ctx, js, "old", 3); err != nil {
		t.Fatal(err)
	}
	if r := replicasOf(ctx, t, js, "sluice-old"); r != 1 {
		t.Errorf("sluice-old scaled to %d", r)
	}
	mu.Lock()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "stream sluice-old has 1 replica(s), not the 3 wanted") {
		t.Errorf("warnings %q, want one naming sluice-old", warnings)
	}
	mu.Unlock()

	// Dial over an R3 file stream, its servers in the form the NATS
	// tools print, makes R3 objects and says so.
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "files", Subjects: []string{"files"}, Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	q, tmpl := keyedQuery(t, "dr3")
	url := strings.ReplaceAll(cl.URL, ",", ",nats://") + "/files/shared"
	k, err := Dial(ctx, Config{Query: q, Source: queueSource{url: url}, Template: tmpl, Parts: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if want := "stream sluice-dr3 3, stream sluice-dr3-wm 3, bucket sluice-dr3 3"; k.Replicas != want {
		t.Errorf("keyed replicas %q, want %q", k.Replicas, want)
	}
	for _, name := range []string{"sluice-dr3", "sluice-dr3-wm", "KV_sluice-dr3"} {
		if r := replicasOf(ctx, t, js, name); r != 3 {
			t.Errorf("%s: %d replicas, want 3", name, r)
		}
	}
}

func replicasOf(ctx context.Context, t *testing.T, js jetstream.JetStream, name string) int {
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
