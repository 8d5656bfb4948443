package file

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/storage"
	"sluice/internal/testutil/s3server"
	"sluice/internal/types"
)

// bigLines is a JSON lines file of n records of varied length (CRLF on
// some), a bad record, and a last line without a newline.
func bigLines(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		eol := "\n"
		if i%7 == 0 {
			eol = "\r\n"
		}
		if i == n/2 {
			b.WriteString(`{"id": "broken` + eol)
			continue
		}
		fmt.Fprintf(&b, `{"id": %d, "pad": "%s"}%s`, i, strings.Repeat("p", (i*31)%90), eol)
	}
	fmt.Fprintf(&b, `{"id": %d, "pad": ""}`, n)
	return b.String()
}

func partsSpec(dir, splitSize string) connector.TableSpec {
	return connector.TableSpec{
		Name: "big", Using: "json", Location: dir,
		Schema:  schema(field("id", types.BigInt), field("pad", types.String)),
		Options: map[string]string{"split_size": splitSize, "mode": "DROPMALFORMED"},
	}
}

func openCols(t *testing.T, spec connector.TableSpec, cols ...string) connector.Source {
	t.Helper()
	src, err := NewSource(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if cols == nil {
		return src
	}
	p, err := src.PushProjection(cols)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func countSplits(t *testing.T, src connector.Source) int {
	t.Helper()
	ctx := context.Background()
	off, err := src.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := src.Plan(ctx, nil, off)
	if err != nil {
		t.Fatal(err)
	}
	return len(sp)
}

func TestSplitSizeCutsLargeFilesAndKeepsRows(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.json":    bigLines(400),
		"b.json":    bigLines(30),
		"c.json.gz": "", // not split: compressed (and empty)
	})
	whole := openCols(t, partsSpec(dir, "0"), "id", "pad", connector.FileColumn)
	cut := openCols(t, partsSpec(dir, "1KB"), "id", "pad", connector.FileColumn)
	if n := countSplits(t, whole); n != 3 {
		t.Fatalf("split_size 0: %d splits, want one per file", n)
	}
	if n := countSplits(t, cut); n < 20 {
		t.Fatalf("split_size 1KB: %d splits of %d files", n, 3)
	}
	want, got := readAll(t, whole), readAll(t, cut)
	if len(want) != 430 || !reflect.DeepEqual(got, want) {
		t.Fatalf("parts read %d rows, whole files %d; first difference in %v", len(got), len(want), firstDiff(got, want))
	}

	// _row of a line format is the file's line: such a query reads whole files.
	if n := countSplits(t, openCols(t, partsSpec(dir, "1KB"), "id", connector.RowColumn)); n != 3 {
		t.Fatalf("with _row: %d splits, want whole files", n)
	}
	// count(*) reads no column: the parts still give every row.
	if a, b := len(readAll(t, openCols(t, partsSpec(dir, "0"), []string{}...))), len(readAll(t, openCols(t, partsSpec(dir, "1KB"), []string{}...))); a != 430 || a != b {
		t.Fatalf("no columns: %d rows whole, %d in parts", a, b)
	}
}

func TestSplitsKeepDeadLetterLines(t *testing.T) {
	dir := writeTree(t, map[string]string{"data/a.json": bigLines(300)})
	bad := map[string]string{}
	for _, size := range []string{"0", "1KB"} {
		dl := filepath.Join(dir, "dl-"+size)
		spec := partsSpec(dir+"/data", size)
		spec.Options["dead_letter_location"] = dl
		readAll(t, openCols(t, spec, "id"))
		var all []string
		es, _ := os.ReadDir(dl)
		for _, e := range es {
			b, _ := os.ReadFile(filepath.Join(dl, e.Name()))
			all = append(all, strings.TrimSpace(string(b)))
		}
		bad[size] = strings.Join(all, "\n")
	}
	if bad["0"] == "" || !strings.Contains(bad["0"], `"line":151`) || bad["1KB"] != bad["0"] {
		t.Fatalf("dead letters whole:\n%s\nin parts:\n%s", bad["0"], bad["1KB"])
	}
}

func TestStreamKeepsWholeFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.json": bigLines(200)})
	src := openCols(t, partsSpec(dir, "1KB"), "id").(*Source)
	ctx := context.Background()
	off, err := src.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := src.plan(ctx, nil, off, false)
	if err != nil || len(sp) != 1 || sp[0].(*Split).Part != nil {
		t.Fatalf("stream plan: %d splits, %v", len(sp), err)
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("row %d: %q vs %q", i, a[i], b[i])
		}
	}
	return "the longer one's tail"
}

// Parts are ranged reads of the object: over an object store they give
// what whole objects give.
func TestSplitsOverMemoryStore(t *testing.T) {
	checkSplitsOn(t, "mem://parts-test/", map[string]string{})
}

func TestSplitsOverS3(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an S3 server")
	}
	srv := s3server.StartTB(t)
	if err := srv.CreateBucket("parts"); err != nil {
		t.Fatal(err)
	}
	checkSplitsOn(t, "s3://parts/", map[string]string{
		"endpoint": srv.Endpoint, "region": srv.Region, "path_style": "true",
		"access_key": srv.AccessKey, "secret_key": srv.SecretKey,
	})
}

func checkSplitsOn(t *testing.T, loc string, opts map[string]string) {
	t.Helper()
	ctx := context.Background()
	so, err := storage.OptionsFromMap(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, prefix, err := storage.Resolve(ctx, loc, so)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ctx, prefix+"big/a.json", strings.NewReader(bigLines(300)), false); err != nil {
		t.Fatal(err)
	}
	spec := func(size string) connector.TableSpec {
		s := partsSpec(loc+"big/", size)
		for k, v := range opts {
			s.Options[k] = v
		}
		return s
	}
	whole, cut := openCols(t, spec("0"), "id", "pad"), openCols(t, spec("2KB"), "id", "pad")
	if n := countSplits(t, cut); n < 5 {
		t.Fatalf("%s: %d splits", loc, n)
	}
	if want, got := readAll(t, whole), readAll(t, cut); len(want) != 300 || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: parts read %d rows, whole %d; %s", loc, len(got), len(want), firstDiff(got, want))
	}
}
