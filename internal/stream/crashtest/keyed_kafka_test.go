package crashtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestKeyedWorkersKafka: TestKeyedWorkersNotifications over Kafka. A
// tumbling-window count per status (8 partitions) is shared by three
// `sluice` processes reading Versity's events from a real Kafka broker
// (two partitions, consumer group feed); partials go to the stream's
// partials topic and each worker owns the aggregation partitions the
// owners' consumer group assigns it. Workers are SIGKILLed and
// restarted while files land; once the file group has committed every
// event, a last file closes every earlier window and the sink must
// equal the batch GROUP BY over the same files, row for row (a file
// counted twice would show). Under CI=true it fails when Kafka is
// missing.
func TestKeyedWorkersKafka(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts Kafka and an S3 server")
	}
	t0 := time.Now()
	o := newOutage(t, "kafka")
	setup := time.Since(t0)
	broker := strings.TrimPrefix(strings.SplitN(o.queue, "/s3-events", 2)[0], "kafka://")
	cl, err := kgo.NewClient(kgo.SeedBrokers(broker))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	name := fmt.Sprintf("kagg%d", bucketN.Add(1))
	files := 0
	put := func(i int, data []byte) {
		t.Helper()
		putObject(t, o.srv, "outage", fmt.Sprintf("keyed/f%04d.json", i), data)
	}
	upload := func(n int) {
		t.Helper()
		for i := files; i < files+n; i++ {
			put(i, keyedFile(i))
		}
		files += n
	}
	upload(4)
	cp := filepath.Join(o.dir, "kcp")
	tables := []string{
		"CREATE TABLE IF NOT EXISTS ksrc (id BIGINT, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 10 SECONDS) USING json LOCATION 's3://outage/keyed/'",
		"CREATE TABLE IF NOT EXISTS kout (w TIMESTAMP, status INT, n BIGINT) USING parquet LOCATION '" + filepath.Join(o.dir, "kout") + "/'",
		"CREATE TABLE IF NOT EXISTS kbatch (w TIMESTAMP, status INT, n BIGINT) USING parquet LOCATION '" + filepath.Join(o.dir, "kbatch") + "/'",
	}
	stmt := "INSERT STREAM INTO kout SELECT TUMBLE(ts, '1 minute').start, status, count(*) FROM ksrc " +
		"GROUP BY TUMBLE(ts, '1 minute'), status " +
		"WITH (name = '" + name + "', trigger = '200 milliseconds', workers = 3, partitions = 8, lock_ttl = '3 seconds', " +
		"discovery = 'notifications', queue = '" + o.queue + "', checkpoint_location = '" + cp + "')"
	f := newFleet(t, o.bin, o.dir, sqlScript(o.session, tables, []string{stmt}))
	s := o.s
	s.exec(t, tables...)
	owners := "sluice-" + name + "-owners"
	ws := []*worker{f.start(), f.start(), f.start()}
	if err := waitAssigned(adm, owners, "sluice-"+name+"-partials", 8, 3, 40*time.Second); err != nil {
		t.Fatalf("owners' group: %v\n%s", err, ws[0].stderr.String())
	}
	assigned := time.Since(t0)
	rng := rand.New(rand.NewPCG(26, 6))
	const kills = 5
	for round := 0; round < kills; round++ {
		upload(2)
		time.Sleep(time.Duration(300+rng.IntN(700)) * time.Millisecond)
		f.alive(ws)
		i := rng.IntN(len(ws))
		f.kill(ws[i])
		ws[i] = f.start()
	}
	upload(2)
	waitCommitted(t, adm, "feed", "s3-events", 60*time.Second)
	drained := time.Since(t0)
	f.alive(ws)
	mid := s.rows(t, "SELECT count(*) FROM kout")[0]
	closer := keyedBase.Add(time.Duration(files*keyedRows)*keyedStep + time.Hour)
	put(files, []byte(fmt.Sprintf("{\"id\": -1, \"status\": 1, \"ts\": \"%s\"}\n", closer.Format(time.RFC3339Nano))))
	s.exec(t, "INSERT INTO kbatch SELECT TUMBLE(ts, '1 minute').start AS w, status, count(*) FROM ksrc GROUP BY TUMBLE(ts, '1 minute'), status "+
		"HAVING w < TIMESTAMP '"+closer.Add(-time.Minute).Format("2006-01-02 15:04:05")+"'")
	want := s.rows(t, "SELECT w, status, n FROM kbatch ORDER BY w, status")
	deadline := time.Now().Add(40 * time.Second)
	for {
		got := s.rows(t, "SELECT count(*) FROM kout")[0]
		if got == strconv.Itoa(len(want)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sink has %s rows, want %d\n%s", got, len(want), ws[0].stderr.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
	time.Sleep(time.Second) // anything still in flight would show as a duplicate
	f.alive(ws)
	f.killAll()
	sameRows(t, s, "SELECT w, status, n FROM kout ORDER BY w, status", want)
	t.Logf("%d files, %d windows x statuses (%s written before the last file), %d kills; broker, gateway and build %s, partitions assigned at %s, drained at %s, done at %s",
		files, len(want), mid, kills, setup.Round(time.Second), assigned.Round(time.Second), drained.Round(time.Second), time.Since(t0).Round(time.Second))
	f.logComplaints()
}

// waitAssigned waits until the consumer group has members members whose
// assignments cover every one of parts partitions of topic.
func waitAssigned(adm *kadm.Client, group, topic string, parts, members int, within time.Duration) error {
	deadline := time.Now().Add(within)
	last := ""
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		d, err := adm.DescribeGroups(ctx, group)
		cancel()
		if err == nil {
			g := d[group]
			covered := map[int32]bool{}
			for _, m := range g.Members {
				if c, ok := m.Assigned.AsConsumer(); ok {
					for _, tp := range c.Topics {
						if tp.Topic == topic {
							for _, p := range tp.Partitions {
								covered[p] = true
							}
						}
					}
				}
			}
			if len(g.Members) == members && len(covered) == parts && g.State == "Stable" {
				return nil
			}
			last = fmt.Sprintf("state %s, %d members, %d partitions assigned", g.State, len(g.Members), len(covered))
		} else {
			last = err.Error()
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("not within %s: %s", within, last)
}

// waitCommitted waits until group has committed every event of topic.
func waitCommitted(t *testing.T, adm *kadm.Client, group, topic string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ends, err := adm.ListEndOffsets(ctx, topic)
		var committed kadm.OffsetResponses
		if err == nil {
			committed, err = adm.FetchOffsets(ctx, group)
		}
		cancel()
		behind := int64(0)
		if err == nil {
			ends.Each(func(lo kadm.ListedOffset) {
				c, ok := committed.Lookup(topic, lo.Partition)
				if !ok || c.At < lo.Offset {
					at := int64(0)
					if ok {
						at = max(c.At, 0)
					}
					behind += lo.Offset - at
				}
			})
			if behind == 0 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s not drained: %d events behind (%v)", group, behind, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
