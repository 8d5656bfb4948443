package crashtest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sluice/internal/testutil/integration"
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
	runKeyedSearch(t, keyedSearch{
		kills: keyedSearchKills, first: 3, join: 7,
		src:     "CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, ts TIMESTAMP)",
		out:     "(status INT, n BIGINT, s BIGINT)",
		mapping: `{"status": {"type": "integer"}, "n": {"type": "long"}, "s": {"type": "long"}}`,
		query:   "SELECT status, count(*), sum(id) FROM src GROUP BY status",
		batch:   "SELECT status, count(*), sum(id) FROM src GROUP BY status ORDER BY status",
		doc: func(id string, d map[string]any) (string, string) {
			line := fmt.Sprintf("%v|%v|%v", d["status"], d["n"], d["s"])
			return fmt.Sprintf("%012v", d["status"]), check(id == fmt.Sprint(d["status"]), id, line)
		},
	})
}

// TestKeyedWorkersWindowsSearch: a one-minute TUMBLE count per status in
// update mode shared by two, then three `sluice` processes (workers =
// 3), a worker SIGKILLed 6 times, into a real OpenSearch index: each
// owner epoch writes the windows its partials changed under ids of
// (window start, status), and drops a window's state once the
// watermark passes it. Files land in event-time order, so nothing is
// late: the index must equal the batch windowed GROUP BY, one document
// per (window, status).
func TestKeyedWorkersWindowsSearch(t *testing.T) {
	runKeyedSearch(t, keyedSearch{
		kills: 6, first: 2, join: 2,
		src:     "CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 10 SECONDS)",
		out:     "(w TIMESTAMP, status INT, n BIGINT)",
		mapping: `{"w": {"type": "date"}, "status": {"type": "integer"}, "n": {"type": "long"}}`,
		query:   "SELECT TUMBLE(ts, '1 minute').start, status, count(*) FROM src GROUP BY TUMBLE(ts, '1 minute'), status",
		batch: "SELECT unix_micros(TUMBLE(ts, '1 minute').start) AS w, status, count(*) FROM src GROUP BY TUMBLE(ts, '1 minute'), status " +
			"ORDER BY w, status",
		doc: func(id string, d map[string]any) (string, string) {
			w, err := time.Parse(time.RFC3339Nano, fmt.Sprint(d["w"]))
			line := fmt.Sprintf("%d|%v|%v", w.UnixMicro(), d["status"], d["n"])
			if err != nil {
				line = fmt.Sprintf("bad w %v: %s", d["w"], line)
			}
			wantID := w.UTC().Format("2006-01-02T15:04:05.999999Z") + "|" + fmt.Sprint(d["status"])
			return fmt.Sprintf("%020d|%012v", w.UnixMicro(), d["status"]), check(id == wantID, id, line)
		},
	})
}

// check is line, or line marked with a bad document id.
func check(ok bool, id, line string) string {
	if ok {
		return line
	}
	return "bad id " + id + ": " + line
}

// keyedSearch is one run of runKeyedSearch.
type keyedSearch struct {
	kills, first, join int    // kills; workers started first; the round a worker joins at
	src                string // the source table's CREATE, without USING
	out, mapping       string // the sink table's columns; the index's field mappings
	query, batch       string // the stream's SELECT; the batch query it must equal
	// doc renders a document as a batch row and its sort key, the row
	// marked when id is not what its group key gives.
	doc func(id string, source map[string]any) (key, line string)
}

// runKeyedSearch runs c.query in update mode as a stream shared by
// `sluice` processes (workers = first+1, 8 partitions, 3-second leases)
// fed by Versity events through NATS into a fresh OpenSearch index,
// SIGKILLs a worker c.kills times while files land (one more worker
// joins at round c.join), and then wants the index to equal c.batch
// document for row.
func runKeyedSearch(t *testing.T, c keyedSearch) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS, an S3 server and OpenSearch")
	}
	ns, srv := needNotify(t)
	node := needOpenSearch(t)
	t0 := time.Now()
	dir := t.TempDir()
	bin := buildSluice(t, dir)
	bucket := newBucket(t, srv, "ksearch")
	name := fmt.Sprintf("grpos%d", bucketN.Add(1))
	index := "groups-" + name
	// The index exists before the workers race to write it.
	osDo(t, node.URL, "PUT", "/"+index, `{"settings": {"number_of_shards": 1, "number_of_replicas": 0}, "mappings": {"properties": `+c.mapping+`}}`)
	up := &keyedUploader{srv: srv, bucket: bucket}
	up.upload(t, 4)
	cp := filepath.Join(dir, "cp")
	session := s3Session(srv)
	tables := []string{
		c.src + " USING json LOCATION 's3://" + bucket + "/in/'",
		"CREATE TABLE IF NOT EXISTS out " + c.out + " USING opensearch OPTIONS (endpoint '" + node.URL + "', index '" + index + "')",
	}
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	workers := c.first + 1
	stmt := "INSERT STREAM INTO out " + c.query + " " +
		"WITH (name = '" + name + "', trigger = '200 milliseconds', workers = " + strconv.Itoa(workers) + ", partitions = 8, lock_ttl = '3 seconds', output_mode = 'update', " +
		"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + cp + "')"
	f := newFleet(t, bin, dir, sqlScript(session, tables, []string{stmt}))
	start, kill := f.start, f.kill
	s := &scenario{dataDir: filepath.Join(dir, "check"), session: session}
	s.exec(t, tables[0])
	leases := watchLeases(t, ns, name)
	var ws []*worker
	for i := 0; i < c.first; i++ {
		ws = append(ws, start())
	}
	if _, err := leases.waitAll(8, nil, 30*time.Second); err != nil {
		t.Fatalf("partitions not leased: %v\n%s", err, ws[0].stderr.String())
	}
	// Slot 0's first listing is committed before the kills: a slot 0
	// killed mid-listing lists again on restart, and every file that
	// listing names is remembered for good (docs/scale-out.md, "Bounded
	// file-id sets"), which would blur the check below.
	marker := filepath.Join(cp, "workers", "0", "sources", "0", "notify", "backfilled")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("slot 0 did not commit its first listing: %v", ws[0].stderr.String())
		}
	}
	rng := rand.New(rand.NewPCG(48, uint64(c.kills)))
	for round := 0; round < c.kills; round++ {
		up.upload(t, 2)
		// Soon after the upload: the victim is likely reading, publishing
		// or writing a version, which then gets done twice.
		time.Sleep(time.Duration(100+rng.IntN(300)) * time.Millisecond)
		if round == c.join {
			ws = append(ws, start()) // one more worker joins
		}
		f.alive(ws)
		i := rng.IntN(len(ws))
		kill(ws[i])
		ws[i] = start()
	}
	waitDrained(t, ns, bucket, 60*time.Second)
	want := s.rows(t, c.batch)
	var got []string
	deadline := time.Now().Add(60 * time.Second)
	for {
		got = osDocs(t, node.URL, index, c.doc)
		if strings.Join(got, "\n") == strings.Join(want, "\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("index documents:\n%s\nbatch:\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), ws[0].stderr.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // a double fold still in flight would show
	// Every file's message is acknowledged: the owners forget every file
	// id but those of the first listing (the 4 files put before the
	// start, if the listing read them), so the partition states stay
	// small however many files went by.
	var ids, size int
	deadline = time.Now().Add(20 * time.Second)
	for {
		ids, size = keyedStateIDs(t, cp, 8)
		if ids <= 4 || time.Now().After(deadline) {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	if ids > 4 {
		p0, _ := os.ReadFile(filepath.Join(cp, "keyed", "p0", "offsets", lastEntry(filepath.Join(cp, "keyed", "p0", "offsets"))))
		t.Errorf("the partitions' last states remember %d distinct file ids of %d files, once all were acknowledged; want at most the 4 listed "+
			"(partition 0's last offsets: %s)", ids, up.files, p0)
	}
	f.killAll()
	if got = osDocs(t, node.URL, index, c.doc); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("after settling, index documents:\n%s\nbatch:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	f.logComplaints()
	t.Logf("%d files, %d documents, %d kills, %d workers at most, ran in %s; the 8 partitions' last states: %d bytes, %d distinct file ids",
		up.files, len(got), c.kills, workers, time.Since(t0), size, ids)
}

// lastEntry is the largest numeric name in dir ("" if none).
func lastEntry(dir string) string {
	entries, _ := os.ReadDir(dir)
	last := int64(-1)
	for _, e := range entries {
		if n, err := strconv.ParseInt(e.Name(), 10, 64); err == nil && n > last {
			last = n
		}
	}
	if last < 0 {
		return ""
	}
	return strconv.FormatInt(last, 10)
}

// keyedStateIDs reads each partition's last committed state under a
// keyed stream's checkpoint dir and returns how many distinct file ids
// they remember and their size in bytes.
func keyedStateIDs(t *testing.T, cp string, parts int) (ids, size int) {
	t.Helper()
	seen := map[int64]bool{}
	for p := 0; p < parts; p++ {
		dir := filepath.Join(cp, "keyed", "p"+strconv.Itoa(p))
		entries, err := os.ReadDir(filepath.Join(dir, "commits"))
		if err != nil {
			continue
		}
		last := int64(-1)
		for _, e := range entries {
			if n, err := strconv.ParseInt(e.Name(), 10, 64); err == nil && n > last {
				last = n
			}
		}
		data, err := os.ReadFile(filepath.Join(dir, "state", strconv.FormatInt(last, 10), "partition"))
		if err != nil || len(data) < 8 {
			continue // purged under us: read again
		}
		size += len(data)
		n := int(binary.LittleEndian.Uint64(data[:8]))
		var h struct {
			Files map[string][]int64 `json:"files"`
		}
		if n > len(data)-8 || json.Unmarshal(data[8:8+n], &h) != nil {
			t.Fatalf("partition %d: state %d unreadable", p, last)
		}
		for _, fs := range h.Files {
			for _, f := range fs {
				seen[f] = true
			}
		}
	}
	return len(seen), size
}

var (
	osOnce sync.Once
	osNode *ostest.Node
	osErr  error
)

// needOpenSearch is one OpenSearch node for the package's tests (closed
// in TestMain); without one the test skips loudly (fails in CI).
func needOpenSearch(t *testing.T) *ostest.Node {
	t.Helper()
	osOnce.Do(func() { osNode, osErr = ostest.Start() })
	if osErr != nil {
		integration.Unavailable(t, "%v: skipping the OpenSearch crash test", osErr)
	}
	return osNode
}

// osDocs is every document of index rendered by doc, in doc's key order.
func osDocs(t *testing.T, url, index string, doc func(id string, source map[string]any) (string, string)) []string {
	t.Helper()
	osDo(t, url, "POST", "/"+index+"/_refresh", "")
	body := osDo(t, url, "GET", "/"+index+"/_search?size=10000", `{"query": {"match_all": {}}}`)
	var res struct {
		Hits struct {
			Hits []struct {
				ID     string         `json:"_id"`
				Source map[string]any `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("search response: %v: %s", err, body)
	}
	type kv struct{ key, line string }
	var docs []kv
	for _, h := range res.Hits.Hits {
		k, line := doc(h.ID, h.Source)
		docs = append(docs, kv{k, line})
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].key < docs[j].key })
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
