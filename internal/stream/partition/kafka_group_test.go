package partition

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/javabroker"
)

// TestKafkaGroupFencing: over a real broker, the owners' group assigns
// every partition to the one member; a second member joining takes half
// of them only once the first one's running epoch (guard) ended; the
// first is then refused (Check) the partitions it lost and a generation
// it never held, and keeps the ones it still holds across the
// generation change. Then a member removed from its group while an
// epoch runs (as the group drops a member paused past its session) is
// refused by the broker, though it still believes it holds the
// partition, and holds it again only under the generation it rejoins in.
func TestKafkaGroupFencing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Kafka")
	}
	b, err := javabroker.StartKafka()
	if err != nil {
		integration.Unavailable(t, "%v", err)
	}
	t.Cleanup(b.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	admin, err := kgo.NewClient(kgo.SeedBrokers(b.Addr))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	adm := kadm.NewClient(admin)
	topic := PartialsTopic("fence")
	if err := ensureTopic(ctx, adm, topic, 4, nil, t.Logf); err != nil {
		t.Fatal(err)
	}
	// An existing topic is only checked: fewer partitions than the
	// stream's are refused, more warned about.
	if err := ensureTopic(ctx, adm, topic, 6, nil, t.Logf); err == nil || !strings.Contains(err.Error(), "has 4 partitions, the stream needs 6") {
		t.Errorf("a topic with too few partitions: %v", err)
	}
	var warned []string
	if err := ensureTopic(ctx, adm, topic, 2, nil, func(f string, a ...any) { warned = append(warned, fmt.Sprintf(f, a...)) }); err != nil || len(warned) != 1 {
		t.Errorf("a topic with more partitions: %v, warnings %q", err, warned)
	}
	join := func(group, worker string, extra ...kgo.Opt) *kafkaGroup {
		g := newKafkaGroup(topic, group, worker)
		cl, err := kgo.NewClient(append(append([]kgo.Opt{kgo.SeedBrokers(b.Addr)}, g.opts(6*time.Second)...), extra...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		cl.PauseFetchTopics(topic)
		g.cl, g.adm = cl, adm
		return g
	}
	wait := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("not within 60s: %s", what)
			}
		}
	}
	a := join(GroupName("fence"), "worker-a")
	wait("worker-a assigned every partition", func() bool { return len(a.Assigned()) == 4 })
	gen := a.Assigned()[0]
	if err := a.Check(ctx, 0, gen); err != nil {
		t.Fatalf("the holder's check: %v", err)
	}
	if err := a.Check(ctx, 0, gen+1); err == nil {
		t.Fatal("a check under a generation never held passed")
	}
	// An epoch of partition 0 runs while worker-b joins: no partition
	// moves until it ends.
	ok, release := a.guard(0, gen)
	if !ok {
		t.Fatal("guard refused the holder")
	}
	bg := join(GroupName("fence"), "worker-b")
	time.Sleep(3 * time.Second)
	if n := len(bg.Assigned()); n != 0 || len(a.Assigned()) != 4 {
		release()
		t.Fatalf("during worker-a's epoch: worker-b holds %d partitions, worker-a %d", n, len(a.Assigned()))
	}
	release()
	wait("two partitions each", func() bool { return len(a.Assigned()) == 2 && len(bg.Assigned()) == 2 })
	for p := 0; p < 4; p++ {
		agen, held := a.Holds(p)
		err := a.Check(ctx, p, gen)
		switch {
		case held && agen == gen && err != nil:
			t.Errorf("partition %d kept by worker-a: check refused: %v", p, err)
		case !held && err == nil:
			t.Errorf("partition %d moved to worker-b: worker-a's check passed", p)
		}
		if bgen, mine := bg.Holds(p); mine {
			if err := bg.Check(ctx, p, bgen); err != nil {
				t.Errorf("partition %d: worker-b's check: %v", p, err)
			}
		}
	}
	live, owners, err := a.view(ctx)
	if err != nil || len(live) != 2 || len(owners) != 4 {
		t.Errorf("view: live %v, owners %v, err %v", live, owners, err)
	}
	t.Logf("generation %d; owners %s", gen, FormatOwners(owners))

	// A static member (instance id) can be removed by an admin: the
	// group moves on without it, as without a member paused past its
	// session.
	c := join("fence-stale", "worker-c", kgo.InstanceID("worker-c"))
	wait("worker-c assigned every partition", func() bool { return len(c.Assigned()) == 4 })
	cgen := c.Assigned()[0]
	ok, release = c.guard(0, cgen)
	if !ok {
		t.Fatal("guard refused worker-c")
	}
	resp, err := adm.LeaveGroup(ctx, kadm.LeaveGroup("fence-stale").InstanceIDs("worker-c"))
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		release()
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	if _, held := c.Holds(0); !held {
		t.Error("worker-c forgot partition 0 during its epoch")
	}
	err = c.Check(ctx, 0, cgen)
	release()
	if err == nil {
		t.Fatal("a member removed from the group passed its check")
	}
	t.Logf("removed member refused: %v", err)
	wait("worker-c assigned again under a later generation", func() bool {
		g, held := c.Holds(0)
		return held && g > cgen
	})
	if err := c.Check(ctx, 0, cgen); err == nil {
		t.Error("a check under the generation before the removal passed")
	}
	ngen, _ := c.Holds(0)
	if err := c.Check(ctx, 0, ngen); err != nil {
		t.Errorf("check under the new generation: %v", err)
	}
}
