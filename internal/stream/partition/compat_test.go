package partition

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/storage"
	"sluice/internal/stream"
	"sluice/internal/testutil/natsserver"
)

// keyedCompatDir is the keyed partition checkpoint an earlier binary's
// code wrote (testdata/compat/datadirs/<commit>/keyed): the JetStream
// store (nats/) and the checkpoint (cp/) of one partition of an
// update-mode count by status, after one epoch over files 1..3.
const keyedCompatDir = "keyed"

// keyedCompatRig is the owner of that partition, over a NATS server
// storing into natsDir and a checkpoint in cpDir.
func keyedCompatRig(t *testing.T, natsDir, cpDir string) *forgetRig {
	t.Helper()
	ctx := context.Background()
	srv, err := natsserver.Start(natsDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	const name = "compat"
	pst, err := EnsureStream(ctx, js, name, 1)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := statusCountGroups(t)
	l, err := OpenLeases(ctx, js, "sluice-"+name, "a", 1, 5*time.Second, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	store, err := storage.NewLocalStore(cpDir)
	if err != nil {
		t.Fatal(err)
	}
	sink := &groupSink{}
	o := &Owner{Stream: name, Parts: 1, PStream: pst, Leases: l, Template: tmpl, Sink: sink,
		Base:  &stream.Checkpoint{Store: store, Prefix: "cp/"},
		parts: map[int]*ownedPart{}, owners: map[int]Holder{}}
	if err := o.balance(ctx); err != nil {
		t.Fatal(err)
	}
	r := &forgetRig{t: t, ctx: ctx, tmpl: tmpl, owner: o, sink: sink, part: o.parts[0],
		pub: &Publisher{JS: js, Stream: name, Part: tmpl.Partitioner(1), Events: fixedSeqs{}}}
	if r.part == nil {
		t.Fatal("partition 0 not taken")
	}
	o.checkBackfill(ctx)
	return r
}

// TestMakeKeyedCompat writes the data dir TestKeyedFromPreviousBinary
// resumes, into $SLUICE_MAKE_KEYED_COMPAT: run it with the binary's code
// before a format change (copied into that commit's tree) and keep its
// output under testdata/compat/datadirs/<commit>/keyed.
func TestMakeKeyedCompat(t *testing.T) {
	dir := os.Getenv("SLUICE_MAKE_KEYED_COMPAT")
	if dir == "" {
		t.Skip("SLUICE_MAKE_KEYED_COMPAT is not set")
	}
	r := keyedCompatRig(t, filepath.Join(dir, "nats"), filepath.Join(dir, "cp"))
	for f, status := range []int64{200, 201, 200} {
		r.publish(int64(f+1), status)
	}
	if got := r.epoch(0); got != "200=2 201=1" {
		t.Fatalf("epoch wrote %q", got)
	}
}

// TestKeyedFromPreviousBinary resumes the keyed partition checkpoint an
// earlier binary wrote: the partition restores its counts and its place
// in the partials stream, and one more epoch over file 4 updates the
// group it changed only.
func TestKeyedFromPreviousBinary(t *testing.T) {
	for _, commit := range []string{"3ebcb6b"} {
		t.Run(commit, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, filepath.Join("..", "..", "..", "testdata", "compat", "datadirs", commit, keyedCompatDir), dir)
			r := keyedCompatRig(t, filepath.Join(dir, "nats"), filepath.Join(dir, "cp"))
			if r.part.next != 1 || r.part.fileIDs() != 3 {
				t.Fatalf("restored at epoch %d with %d file ids, want 1 and 3", r.part.next, r.part.fileIDs())
			}
			r.publish(4, 201)
			if got := r.epoch(0); got != "201=2" {
				t.Errorf("epoch after the restore wrote %q, want 201=2", got)
			}
		})
	}
}

// copyTree copies the folder tree src to dst, which must not hold any of it.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
