package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	ostest "sluice/internal/testutil/opensearch"
)

// keyedSearchKills is how many workers TestKeyedWorkersGroupBySearch
// kills.
const keyedSearchKills = 20

// TestKeyedWorkersGroupBySearch: a plain GROUP BY status in update mode
// shared by `sluice` processes (workers = 4, 8 partitions, 3-second
// leases) fed by Versity events through NATS, writing into a real
// OpenSearch index whose table sets no id: the workers name each
// group's document by its key (status), so every version, replay and
// takeover overwrites the one document. Three start, a fourth joins
// mid-run, a worker is SIGKILLed and restarted keyedSearchKills times
// while files land; once drained the index must hold exactly one
// document per status, with the batch GROUP BY's count and sum.
func TestKeyedWorkersGroupBySearch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS, an S3 server and OpenSearch")
	}
	ns, srv := needNotify(t)
	node := ostest.StartTB(t)
	t0 := time.Now()
	dir := t.TempDir()
	bin := filepath.Join(dir, "sluice")
	if out, err := exec.Command("go", "build", "-o", bin, "sluice/cmd/sluice").CombinedOutput(); err != nil {
		t.Fatalf("building sluice: %v\n%s", err, out)
	}
	bucket := fmt.Sprintf("ksearch%d-%d", os.Getpid(), bucketN.Add(1))
	if err := srv.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("grpos%d", bucketN.Add(1))
	index := "groups-" + name
	// The index exists before the workers race to write it.
	osDo(t, node.URL, "PUT", "/"+index, `{"settings": {"number_of_shards": 1, "number_of_replicas": 0},
		"mappings": {"properties": {"status": {"type": "integer"}, "n": {"type": "long"}, "s": {"type": "long"}}}}`)
	files := 0
	upload := func(n int) {
		t.Helper()
		for i := files; i < files+n; i++ {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			_, err := srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket),
				Key: aws.String(fmt.Sprintf("in/f%04d.json", i)), Body: bytes.NewReader(keyedFile(i))})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			notifyPuts++
		}
		files += n
	}
	upload(4)
	cp := filepath.Join(dir, "cp")
	session := s3Session(srv)
	tables := []string{
		"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, ts TIMESTAMP) USING json LOCATION 's3://" + bucket + "/in/'",
		"CREATE TABLE IF NOT EXISTS out (status INT, n BIGINT, s BIGINT) USING opensearch OPTIONS (endpoint '" + node.URL + "', index '" + index + "')",
	}
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	stmt := "INSERT STREAM INTO out SELECT status, count(*), sum(id) FROM src GROUP BY status " +
		"WITH (name = '" + name + "', trigger = '200 milliseconds', workers = 4, partitions = 8, lock_ttl = '3 seconds', output_mode = 'update', " +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + cp + "')"
	script := strings.Join(append(append(append([]string{}, session...), tables...), stmt), ";\n") + ";"
	n := 0
	var all []*worker
	start := func() *worker {
		t.Helper()
		n++
		data := filepath.Join(dir, "data"+strconv.Itoa(n))
		w := &worker{cmd: exec.Command(bin, "sql", "--data-dir", data, "-e", script), stderr: &bytes.Buffer{}, exited: make(chan error, 1)}
		w.cmd.Stderr = w.stderr
		if err := w.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { w.exited <- w.cmd.Wait() }()
		all = append(all, w)
		return w
	}
	kill := func(w *worker) {
		_ = w.cmd.Process.Signal(syscall.SIGKILL)
		<-w.exited
	}
	s := &scenario{dataDir: filepath.Join(dir, "check"), session: session}
	s.exec(t, tables[0])
	nc, err := nats.Connect(ns.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	leases := &leaseWatch{js: js, bucket: "sluice-" + name}
	ws := []*worker{start(), start(), start()}
	defer func() {
		for _, w := range ws {
			if w.cmd.ProcessState == nil {
				kill(w)
			}
		}
	}()
	if _, err := leases.waitAll(8, nil, 30*time.Second); err != nil {
		t.Fatalf("partitions not leased: %v\n%s", err, ws[0].stderr.String())
	}
	rng := rand.New(rand.NewPCG(48, 12))
	for round := 0; round < keyedSearchKills; round++ {
		upload(2)
		// Soon after the upload: the victim is likely reading, publishing
		// or writing a version, which then gets done twice.
		time.Sleep(time.Duration(100+rng.IntN(300)) * time.Millisecond)
		if round == 7 {
			ws = append(ws, start()) // a fourth worker joins
		}
		for _, w := range ws {
			select {
			case err := <-w.exited:
				t.Fatalf("a worker exited by itself (%v): %s", err, w.stderr.String())
			default:
			}
		}
		i := rng.IntN(len(ws))
		kill(ws[i])
		ws[i] = start()
	}
	waitDrained(t, ns, bucket, 60*time.Second)
	want := s.rows(t, "SELECT status, count(*), sum(id) FROM src GROUP BY status ORDER BY status")
	var got []string
	deadline := time.Now().Add(60 * time.Second)
	for {
		got = osGroups(t, node.URL, index)
		if strings.Join(got, "\n") == strings.Join(want, "\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("index documents (id|status|n|s):\n%s\nbatch GROUP BY:\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), ws[0].stderr.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // a double fold still in flight would show
	for _, w := range ws {
		kill(w)
	}
	if got = osGroups(t, node.URL, index); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("after settling, index documents:\n%s\nbatch GROUP BY:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	seen := map[string]int{}
	for _, w := range all {
		for _, line := range strings.Split(w.stderr.String(), "\n") {
			if strings.HasPrefix(line, "keyed stream") {
				seen[line]++
			}
		}
	}
	for line, k := range seen {
		t.Logf("%d x %s", k, line)
	}
	t.Logf("%d files, %d groups = %d documents, %d kills, 4 workers at most, ran in %s", files, len(want), len(got), keyedSearchKills, time.Since(t0))
}

// osGroups is every document of index as "status|n|s" sorted by status,
// after checking that each document's id is its status; a document
// whose id is not its status is returned as "bad id ...".
func osGroups(t *testing.T, url, index string) []string {
	t.Helper()
	osDo(t, url, "POST", "/"+index+"/_refresh", "")
	body := osDo(t, url, "GET", "/"+index+"/_search?size=1000", `{"query": {"match_all": {}}}`)
	var res struct {
		Hits struct {
			Hits []struct {
				ID     string `json:"_id"`
				Source struct {
					Status int64 `json:"status"`
					N      int64 `json:"n"`
					S      int64 `json:"s"`
				} `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatalf("search response: %v: %s", err, body)
	}
	type doc struct {
		status int64
		line   string
	}
	var docs []doc
	for _, h := range res.Hits.Hits {
		line := fmt.Sprintf("%d|%d|%d", h.Source.Status, h.Source.N, h.Source.S)
		if h.ID != strconv.FormatInt(h.Source.Status, 10) {
			line = "bad id " + h.ID + ": " + line
		}
		docs = append(docs, doc{h.Source.Status, line})
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].status < docs[j].status })
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.line
	}
	return out
}

// osDo sends one request to the node and returns the body; a status of
// 300 or more fails the test.
func osDo(t *testing.T, url, method, path, body string) []byte {
	t.Helper()
	req, err := http.NewRequest(method, url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %s: %s", method, path, resp.Status, data)
	}
	return data
}
