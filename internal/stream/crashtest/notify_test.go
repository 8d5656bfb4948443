package crashtest

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/natsserver"
	"sluice/internal/testutil/s3server"
)

// The notification rig: NATS with JetStream embedded in this (parent)
// process, and a Versity gateway publishing its S3 events to it. Shared
// by the tests of the package, stopped by TestMain's cleanup.
var (
	notifyOnce sync.Once
	notifyNATS *natsserver.Server
	notifyS3   *s3server.Server
	notifyErr  error
	// notifyPuts counts the objects put through the gateway, so a test
	// can wait until each one's event is in the stream.
	notifyPuts int
)

const eventSubject = "s3.events"

func needNotify(t *testing.T) (*natsserver.Server, *s3server.Server) {
	t.Helper()
	if testing.Short() {
		t.Skip("S3 SERVER UNAVAILABLE (-short): skipping notification crash test")
	}
	notifyOnce.Do(func() {
		notifyNATS, notifyErr = natsserver.Start("")
		if notifyErr != nil {
			return
		}
		if notifyErr = notifyNATS.AddStream("s3events", eventSubject); notifyErr != nil {
			return
		}
		notifyS3, notifyErr = s3server.Start("--event-nats-url", notifyNATS.URL, "--event-nats-topic", eventSubject)
	})
	if notifyErr != nil {
		integration.Unavailable(t, "%v: skipping notification crash test", notifyErr)
	}
	return notifyNATS, notifyS3
}

func stopNotify() {
	notifyS3.Stop()
	notifyNATS.Stop()
}

// waitEvents waits until the stream holds the gateway's test event and
// one event per object put.
func waitEvents(t *testing.T, ns *natsserver.Server) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := ns.StreamMsgs("s3events")
		if err != nil {
			t.Fatal(err)
		}
		if n >= uint64(1+notifyPuts) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("stream holds %d events, want %d", n, 1+notifyPuts)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// notifyScenario: the input lands in a fresh bucket of the gateway, the
// stream discovers it through a JetStream consumer of its own (ack wait
// 1s, so a killed run's messages come back quickly), the sink and the
// checkpoint are local.
func notifyScenario(t *testing.T, nFiles int) *scenario {
	ns, srv := needNotify(t)
	bucket := newBucket(t, srv, "notify")
	return notifyScenarioIn(t, ns, srv, bucket, t.TempDir(), nFiles)
}

// notifyScenarioIn is notifyScenario over a bucket and directory given.
func notifyScenarioIn(t *testing.T, ns *natsserver.Server, srv *s3server.Server, bucket, dir string, nFiles int) *scenario {
	up := &inputUploader{srv: srv, bucket: bucket, dir: filepath.Join(dir, "in"), rows: 50}
	upload := func(t *testing.T, from, n int) {
		t.Helper()
		up.files = from
		up.upload(t, n)
		waitEvents(t, ns)
	}
	// The first files land before the stream's consumer exists: only the
	// backfill can find them (their events are in the stream too, and
	// the consumer starts at the stream's beginning, so they also arrive
	// as duplicates).
	upload(t, 0, nFiles)
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	return &scenario{
		files:   nFiles,
		more:    upload,
		dataDir: filepath.Join(dir, "data"),
		session: s3Session(srv),
		setup: []string{
			"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, msg STRING) USING json LOCATION 's3://" + bucket + "/in/'",
			"CREATE TABLE IF NOT EXISTS out (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
			"CREATE TABLE IF NOT EXISTS batch (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(dir, "batch") + "/'",
		},
		stmt: "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 " +
			"WITH (name = 'feed', trigger = 'available_now', max_files_per_trigger = 2, " +
			"discovery = 'notifications', queue = '" + queue + "', " +
			"checkpoint_location = '" + filepath.Join(dir, "cp") + "')",
	}
}

// TestCrashRecoveryNotifications: a stream fed by S3 event notifications
// over NATS JetStream, straight through and then SIGKILLed at crash
// points and random moments with new objects landing between runs; both
// equal the batch INSERT row for row, so no event was lost and no
// redelivered one read twice.
func TestCrashRecoveryNotifications(t *testing.T) {
	for _, crash := range []bool{false, true} {
		t.Run(map[bool]string{false: "straight", true: "killed"}[crash], func(t *testing.T) {
			s := notifyScenario(t, 10)
			t0 := time.Now()
			if crash {
				killed, finished := s.killLoop(t, 15, 44)
				t.Logf("%d kills, %d runs caught up before the end, %d files, done in %s", killed, finished, s.files, time.Since(t0))
			} else {
				s.catchUp(t)
				s.more(t, s.files, 5)
				s.files += 5
				s.catchUp(t)
			}
			s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
			s.compare(t, s.files*50*3/5)
		})
	}
}
