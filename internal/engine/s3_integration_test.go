package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// formatCase is one data file of the repository's testdata, read from
// local disk and from S3: the rows must be the same.
type formatCase struct {
	name, using, file, cols string
	// opts are extra table options, e.g. "header 'true'".
	opts string
}

var formatCases = []formatCase{
	{"json", "json", "data/json/people.json", "id, name, score", ""},
	{"json_gz", "json", "data/json/people.json.gz", "id, name, score", ""},
	{"json_zst", "json", "data/json/people.json.zst", "id, name, score", ""},
	{"json_snappy", "json", "data/json/people.json.sz", "id, name, score", ""},
	{"json_bz2", "json", "data/json/people.json.bz2", "id, name, score", ""},
	{"csv", "csv", "data/csv/people.csv", "id, name, score", "header 'true'"},
	{"csv_gz", "csv", "data/csv/people.csv.gz", "id, name, score", "header 'true'"},
	{"parquet", "parquet", "data/parquet/people.parquet", "id, name, score", ""},
}

// s3Fixture is a bucket holding the testdata files and the sample logs,
// with one engine that has a local and an S3 table for each.
type s3Fixture struct {
	bucket string
	eng    *Engine
}

// newS3Fixture uploads the testdata and creates, for every format case,
// a table l_<name> on local disk and s_<name> on S3 reached through
// endpoint (the server or a proxy). The logs tables are l_logs/s_logs.
func newS3Fixture(t *testing.T, endpoint string, extra ...string) *s3Fixture {
	t.Helper()
	f := &s3Fixture{bucket: newBucket(t), eng: newTestEngine(t)}
	for _, c := range formatCases {
		uploadFile(t, f.bucket, "formats/"+filepath.Base(c.file), testdata(t, c.file))
	}
	logs := testdata(t, "sample/http_logs")
	err := filepath.Walk(logs, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(logs, p)
		uploadFile(t, f.bucket, "logs/"+filepath.ToSlash(rel), p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := s3Opts(endpoint, extra...)
	for _, c := range formatCases {
		lopts, sopts := "", opts
		if c.opts != "" {
			lopts, sopts = "OPTIONS ("+c.opts+")", s3Opts(endpoint, append([]string{c.opts}, extra...)...)
		}
		mustExec(t, f.eng, fmt.Sprintf("CREATE TABLE l_%s USING %s LOCATION '%s' %s", c.name, c.using, testdata(t, c.file), lopts))
		mustExec(t, f.eng, fmt.Sprintf("CREATE TABLE s_%s USING %s LOCATION 's3://%s/formats/%s' %s",
			c.name, c.using, f.bucket, filepath.Base(c.file), sopts))
	}
	mustExec(t, f.eng, fmt.Sprintf("CREATE TABLE l_logs USING json LOCATION '%s/'", logs))
	mustExec(t, f.eng, fmt.Sprintf("CREATE TABLE s_logs USING json LOCATION 's3://%s/logs/' %s", f.bucket, opts))
	mustExec(t, f.eng, fmt.Sprintf("CREATE TABLE l_glob USING json LOCATION '%s/date=2026-11-2*/*'", logs))
	mustExec(t, f.eng, fmt.Sprintf("CREATE TABLE s_glob USING json LOCATION 's3://%s/logs/date=2026-11-2*/*' %s", f.bucket, opts))
	return f
}

// fixtureQueries are the queries TestS3Formats and TestS3Faults run on
// every s_ table and its l_ twin.
func fixtureQueries() []string {
	var qs []string
	for _, c := range formatCases {
		qs = append(qs, fmt.Sprintf("SELECT %s FROM %%s_%s", c.cols, c.name))
	}
	return append(qs,
		"SELECT `@timestamp`, clientip, status, size, date FROM %s_logs",
		"SELECT clientip, status FROM %s_logs WHERE date = '2026-11-29'",
		"SELECT request, date FROM %s_glob WHERE status >= 500",
	)
}

// TestS3Formats reads every format and compression from S3, a folder of
// Hive partitions and a glob, and gets exactly the rows local disk gives.
func TestS3Formats(t *testing.T) {
	f := newS3Fixture(t, needS3(t).Endpoint)
	for _, q := range fixtureQueries() {
		local := sortedRows(t, f.eng, fmt.Sprintf(q, "l"))
		remote := sortedRows(t, f.eng, fmt.Sprintf(q, "s"))
		if len(local) == 0 {
			t.Errorf("%s: no rows locally", fmt.Sprintf(q, "l"))
		}
		if !reflect.DeepEqual(local, remote) {
			t.Errorf("%s: S3 gave %d rows, local %d\nS3:    %.300v\nlocal: %.300v", fmt.Sprintf(q, "s"), len(remote), len(local), remote, local)
		}
	}
	// The glob covers two of the three partitions.
	if got, all := len(sortedRows(t, f.eng, "SELECT status FROM s_glob")), len(sortedRows(t, f.eng, "SELECT status FROM s_logs")); got == 0 || got >= all {
		t.Errorf("glob read %d rows of %d", got, all)
	}
}

// TestS3PartitionPruning checks that a filter on a partition column
// keeps the other partitions' objects from being fetched at all.
func TestS3PartitionPruning(t *testing.T) {
	proxy := countingProxy(t)
	bucket := newBucket(t)
	eng := newTestEngine(t)
	// 4 days x 3 objects.
	for d := 1; d <= 4; d++ {
		for i := 0; i < 3; i++ {
			putObject(t, bucket, fmt.Sprintf("events/day=%d/part-%d.json", d, i),
				[]byte(fmt.Sprintf("{\"n\": %d}\n{\"n\": %d}\n", d*100+i, d*100+i+50)))
		}
	}
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE ev USING json LOCATION 's3://%s/events/' %s", bucket, s3Opts(proxy.URL)))
	cases := []struct {
		sql      string
		rows     int
		maxGets  int64
		wantGets int64
	}{
		{"SELECT n FROM ev", 24, 12, 12},
		{"SELECT n FROM ev WHERE day = 2", 6, 3, 3},
		{"SELECT n, day FROM ev WHERE day >= 3", 12, 6, 6},
		{"SELECT n FROM ev WHERE day = 9", 0, 0, 0},
		// Several pinned partitions are listed in parallel.
		{"SELECT n FROM ev WHERE day IN (1, 3, 4)", 18, 9, 9},
		{"SELECT n FROM ev WHERE day = 1 OR day = 4", 12, 6, 6},
	}
	for _, c := range cases {
		proxy.ResetCounts()
		rows := sortedRows(t, eng, c.sql)
		got := proxy.Counts()
		if len(rows) != c.rows {
			t.Errorf("%s: %d rows, want %d", c.sql, len(rows), c.rows)
		}
		t.Logf("%s: %d listing requests, %d object GETs", c.sql, got.ByMethod["GET"]-got.ObjectGets, got.ObjectGets)
		if got.ObjectGets != c.wantGets {
			t.Errorf("%s: %d object GETs, want %d (counts %+v)", c.sql, got.ObjectGets, c.wantGets, got)
		}
	}
}

// TestS3PartitionListing: string partitions pinned by the filter are
// listed by prefix (in parallel), so the other partitions are not even
// listed, let alone fetched.
func TestS3PartitionListing(t *testing.T) {
	proxy := countingProxy(t)
	bucket := newBucket(t)
	eng := newTestEngine(t)
	regions := []string{"ap", "eu", "sa", "us"}
	for _, r := range regions {
		for i := 0; i < 5; i++ {
			putObject(t, bucket, fmt.Sprintf("sales/region=%s/part-%d.json", r, i), []byte(fmt.Sprintf("{\"n\": %d}\n", i)))
		}
	}
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE sales (n INT, region STRING) USING json LOCATION 's3://%s/sales/' PARTITIONED BY (region) %s",
		bucket, s3Opts(proxy.URL)))
	cases := []struct {
		sql               string
		rows              int
		gets, maxListings int64
	}{
		{"SELECT n, region FROM sales", 20, 20, 1},
		{"SELECT n FROM sales WHERE region = 'eu'", 5, 5, 2},
		{"SELECT n, region FROM sales WHERE region IN ('ap', 'us', 'xx')", 10, 10, 4},
	}
	for _, c := range cases {
		proxy.ResetCounts()
		rows := sortedRows(t, eng, c.sql)
		got := proxy.Counts()
		listings := got.ByMethod["GET"] - got.ObjectGets
		t.Logf("%s: %d listing requests, %d object GETs", c.sql, listings, got.ObjectGets)
		if len(rows) != c.rows || got.ObjectGets != c.gets || listings > c.maxListings {
			t.Errorf("%s: %d rows, %d GETs, %d listings; want %d, %d, <= %d", c.sql, len(rows), got.ObjectGets, listings, c.rows, c.gets, c.maxListings)
		}
	}
}

// TestS3ManyKeys lists 2,500 keys (three pages of 1,000) and reads them.
func TestS3ManyKeys(t *testing.T) {
	srv := needS3(t)
	proxy := countingProxy(t)
	bucket := newBucket(t)
	// Written straight into the gateway's posix backend: 2,500 PUTs would
	// cost the test seconds and prove nothing more.
	dir := filepath.Join(srv.Dir, bucket, "many")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 2500
	for i := 0; i < n; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("k%05d.json", i)), []byte(fmt.Sprintf("{\"k\": %d}\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	eng := newTestEngine(t)
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE many (k INT) USING json LOCATION 's3://%s/many/' %s", bucket, s3Opts(proxy.URL)))
	proxy.ResetCounts()
	rows := sortedRows(t, eng, "SELECT k FROM many")
	if len(rows) != n {
		t.Fatalf("read %d rows, want %d", len(rows), n)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r] = true
	}
	if len(seen) != n || !seen["0"] || !seen["2499"] {
		t.Errorf("rows are not 0..2499: %d distinct", len(seen))
	}
	c := proxy.Counts()
	if lists := c.ByMethod["GET"] - c.ObjectGets; lists < 3 {
		t.Errorf("%d listing requests for %d keys, want >= 3 pages", lists, n)
	}
	if c.ObjectGets != n {
		t.Errorf("%d object GETs, want %d", c.ObjectGets, n)
	}
	// A glob over the same keys: a tenth of them.
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE few (k INT) USING json LOCATION 's3://%s/many/k*0.json' %s", bucket, s3Opts(srv.Endpoint)))
	if got := len(sortedRows(t, eng, "SELECT k FROM few")); got != n/10 {
		t.Errorf("glob k*0.json read %d rows, want %d", got, n/10)
	}
}

// TestS3Insert writes file tables to S3 with INSERT INTO and reads them
// back, in every format and compression the sink writes.
func TestS3Insert(t *testing.T) {
	srv := needS3(t)
	bucket := newBucket(t)
	eng := newTestEngine(t)
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE src USING json LOCATION '%s'", testdata(t, "data/json/people.json")))
	want := sortedRows(t, eng, "SELECT id, name, score FROM src")
	for _, c := range []struct{ name, using, opts string }{
		{"pq", "parquet", ""},
		{"js", "json", ""},
		{"jsgz", "json", "compression 'gzip'"},
		{"jszst", "json", "compression 'zstd'"},
		{"csvsz", "csv", "compression 'snappy', header 'true'"},
	} {
		var extra []string
		if c.opts != "" {
			extra = strings.Split(c.opts, ", ")
		}
		mustExec(t, eng, fmt.Sprintf("CREATE TABLE %s (id INT, name STRING, score DOUBLE) USING %s LOCATION 's3://%s/%s/' %s",
			c.name, c.using, bucket, c.name, s3Opts(srv.Endpoint, extra...)))
		mustExec(t, eng, fmt.Sprintf("INSERT INTO %s SELECT id, name, score FROM src", c.name))
		if got := sortedRows(t, eng, "SELECT id, name, score FROM "+c.name); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back %v, want %v", c.name, got, want)
		}
		// A second INSERT appends new objects, it does not replace.
		mustExec(t, eng, fmt.Sprintf("INSERT INTO %s SELECT id, name, score FROM src WHERE id <= 2", c.name))
		if got := len(sortedRows(t, eng, "SELECT id FROM "+c.name)); got != len(want)+2 {
			t.Errorf("%s: %d rows after a second insert, want %d", c.name, got, len(want)+2)
		}
	}
}

// TestS3InsertMultipart writes one object larger than the part size, so
// the sink's upload goes multipart, and reads every row back.
func TestS3InsertMultipart(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 7 MB")
	}
	proxy := countingProxy(t)
	bucket := newBucket(t)
	eng := newTestEngine(t)
	// ~7 MB of NDJSON that does not compress away: a 100-character
	// pseudo-random payload per row.
	const n = 60000
	var b strings.Builder
	x := uint64(12345)
	for i := 0; i < n; i++ {
		b.WriteString(fmt.Sprintf("{\"id\": %d, \"payload\": \"", i))
		for j := 0; j < 100; j++ {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			b.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789"[x%36])
		}
		b.WriteString("\"}\n")
	}
	local := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(local, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE big_src (id BIGINT, payload STRING) USING json LOCATION '%s'", local))
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE big (id BIGINT, payload STRING) USING json LOCATION 's3://%s/big/' %s",
		bucket, s3Opts(proxy.URL, "part_size '5242880'")))
	proxy.ResetCounts()
	mustExec(t, eng, "INSERT INTO big SELECT id, payload FROM big_src")
	if c := proxy.Counts(); c.MultipartParts < 2 {
		t.Errorf("the ~7 MB insert sent %d multipart parts, want >= 2 (counts %+v)", c.MultipartParts, c)
	}
	want := sortedRows(t, eng, "SELECT id, payload FROM big_src")
	got := sortedRows(t, eng, "SELECT id, payload FROM big")
	if len(got) != n || !reflect.DeepEqual(got, want) {
		t.Errorf("read back %d rows (want %d), equal=%v", len(got), n, reflect.DeepEqual(got, want))
	}
}
