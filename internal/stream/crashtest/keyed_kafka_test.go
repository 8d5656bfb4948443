package crashtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestKeyedWorkersKafka: TestKeyedWorkersNotifications and
// TestKeyedWorkersGroupBy over Kafka, side by side on one broker. Each
// stream (8 partitions) is shared by three `sluice` processes reading
// Versity's events from a real Kafka broker (two partitions, a consumer
// group per stream); partials go to the stream's partials topic and each worker
// owns the aggregation partitions the owners' consumer group assigns it.
// Workers are SIGKILLed and restarted while files land; once the file
// group has committed every event the sink must equal the batch GROUP BY
// over the same files (a file counted twice would show): the windowed
// count row for row once a last file closed every earlier window, the
// update-mode GROUP BY as each group's last version. Under CI=true it
// fails when Kafka is missing.
func TestKeyedWorkersKafka(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts Kafka and an S3 server")
	}
	t0 := time.Now()
	o := newOutage(t, "kafka")
	t.Logf("broker, gateway and build: %s", time.Since(t0).Round(time.Second))
	broker := strings.TrimPrefix(strings.SplitN(o.queue, "/s3-events", 2)[0], "kafka://")
	cl, err := kgo.NewClient(kgo.SeedBrokers(broker))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	// The two streams run side by side, each with its own file group,
	// partials topic and owners' group.
	win := launchKafkaKeyed(t, o, "kwin", "WATERMARK FOR ts AS ts - INTERVAL 10 SECONDS", "w TIMESTAMP, status INT, n BIGINT",
		"SELECT TUMBLE(ts, '1 minute').start, status, count(*) FROM kwin_src GROUP BY TUMBLE(ts, '1 minute'), status", "")
	grp := launchKafkaKeyed(t, o, "kgrp", "", "status INT, n BIGINT, s BIGINT",
		"SELECT status, count(*), sum(id) FROM kgrp_src GROUP BY status", ", output_mode = 'update'")
	ks := []*kafkaKeyed{win, grp}
	for _, k := range ks {
		if err := waitAssigned(adm, "sluice-"+k.name+"-owners", "sluice-"+k.name+"-partials", 8, 3, 40*time.Second); err != nil {
			t.Fatalf("%s owners' group: %v\n%s", k.name, err, k.ws[0].stderr.String())
		}
	}
	t.Logf("partitions assigned after %s", time.Since(win.t0).Round(time.Second))
	rng := rand.New(rand.NewPCG(26, 6))
	for round := 0; round < kafkaKeyedKills; round++ {
		for _, k := range ks {
			k.upload(t, 2)
		}
		// Soon after the upload: the victim is likely reading, publishing
		// or committing a file, which then gets read twice.
		time.Sleep(time.Duration(200+rng.IntN(600)) * time.Millisecond)
		for _, k := range ks {
			k.f.alive(k.ws)
			i := rng.IntN(len(k.ws))
			k.f.kill(k.ws[i])
			k.ws[i] = k.f.start()
		}
	}
	for _, k := range ks {
		k.upload(t, 2)
	}
	for _, k := range ks {
		waitCommitted(t, adm, k.name, "s3-events", 60*time.Second)
		k.f.alive(k.ws)
	}
	t.Logf("%d kills each, drained after %s", kafkaKeyedKills, time.Since(win.t0).Round(time.Second))
	t.Run("windows", func(t *testing.T) {
		k, s := win, o.s
		mid := s.rows(t, "SELECT count(*) FROM kwin_out")[0]
		closer := keyedBase.Add(time.Duration(k.files*keyedRows)*keyedStep + time.Hour)
		k.put(k.files, []byte(fmt.Sprintf("{\"id\": -1, \"status\": 1, \"ts\": \"%s\"}\n", closer.Format(time.RFC3339Nano))))
		want := s.rows(t, "SELECT TUMBLE(ts, '1 minute').start AS w, status, count(*) FROM kwin_src GROUP BY TUMBLE(ts, '1 minute'), status "+
			"HAVING w < TIMESTAMP '"+closer.Add(-time.Minute).Format("2006-01-02 15:04:05")+"' ORDER BY w, status")
		k.settle(t, "SELECT w, status, n FROM kwin_out ORDER BY w, status", want)
		t.Logf("%d files, %d windows x statuses (%s written before the last file)", k.files, len(want), mid)
	})
	t.Run("groupby", func(t *testing.T) {
		k := grp
		want := o.s.rows(t, "SELECT status, count(*), sum(id), sum(id) FROM kgrp_src GROUP BY status ORDER BY status")
		// Counts only grow: the versions with the largest count are a
		// group's last, all with the one final sum.
		k.settle(t, "SELECT o.status, o.n, min(o.s), max(o.s) FROM kgrp_out o JOIN (SELECT status, max(n) AS n FROM kgrp_out GROUP BY status) m "+
			"ON o.status = m.status AND o.n = m.n GROUP BY o.status, o.n ORDER BY o.status", want)
		t.Logf("%d files, %d groups", k.files, len(want))
	})
}

// kafkaKeyed is one keyed stream of TestKeyedWorkersKafka: its fleet,
// the live workers and the files uploaded under <name>/.
type kafkaKeyed struct {
	o     *outage
	name  string
	f     *fleet
	ws    []*worker
	files int
	t0    time.Time
}

// kafkaKeyedKills is how many workers each stream of
// TestKeyedWorkersKafka loses.
const kafkaKeyedKills = 3

// launchKafkaKeyed creates <name>_src (over <name>/, with watermark)
// and <name>_out (sinkCols), uploads 4 files and starts three workers
// running INSERT STREAM INTO <name>_out <query> (8 partitions, its own
// file group <name>, opts added).
func launchKafkaKeyed(t *testing.T, o *outage, name, watermark, sinkCols, query, opts string) *kafkaKeyed {
	t.Helper()
	k := &kafkaKeyed{o: o, name: name, t0: time.Now()}
	k.upload(t, 4)
	dir := filepath.Join(o.dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if watermark != "" {
		watermark = ", " + watermark
	}
	tables := []string{
		"CREATE TABLE IF NOT EXISTS " + name + "_src (id BIGINT, status INT, ts TIMESTAMP" + watermark + ") USING json LOCATION 's3://outage/" + name + "/'",
		"CREATE TABLE IF NOT EXISTS " + name + "_out (" + sinkCols + ") USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
	}
	queue := strings.Replace(o.queue, "/s3-events/feed", "/s3-events/"+name, 1)
	stmt := "INSERT STREAM INTO " + name + "_out " + query + " " +
		"WITH (name = '" + name + "', trigger = '200 milliseconds', workers = 3, partitions = 8, lock_ttl = '3 seconds'" + opts + ", " +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + filepath.Join(dir, "cp") + "')"
	k.f = newFleet(t, o.bin, dir, sqlScript(o.session, tables, []string{stmt}))
	o.s.exec(t, tables...)
	k.ws = []*worker{k.f.start(), k.f.start(), k.f.start()}
	return k
}

func (k *kafkaKeyed) put(i int, data []byte) {
	putObject(k.f.t, k.o.srv, "outage", fmt.Sprintf("%s/f%04d.json", k.name, i), data)
}

func (k *kafkaKeyed) upload(t *testing.T, n int) {
	t.Helper()
	for i := k.files; i < k.files+n; i++ {
		putObject(t, k.o.srv, "outage", fmt.Sprintf("%s/f%04d.json", k.name, i), keyedFile(i))
	}
	k.files += n
}

// settle waits until q returns want, lets anything in flight land, and
// checks again with every worker killed: a partial folded twice would
// show.
func (k *kafkaKeyed) settle(t *testing.T, q string, want []string) {
	t.Helper()
	for deadline := time.Now().Add(40 * time.Second); strings.Join(k.o.s.rows(t, q), "\n") != strings.Join(want, "\n"); time.Sleep(300 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("sink:\n%s\nbatch:\n%s\n%s", strings.Join(k.o.s.rows(t, q), "\n"), strings.Join(want, "\n"), k.ws[0].stderr.String())
		}
	}
	time.Sleep(time.Second)
	k.f.alive(k.ws)
	k.f.killAll()
	sameRows(t, k.o.s, q, want)
	k.f.logComplaints()
	t.Logf("settled %s after the start", time.Since(k.t0).Round(time.Second))
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
