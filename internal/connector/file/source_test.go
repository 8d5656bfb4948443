package file

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/types"
)

func logsTree(t *testing.T) string {
	return writeTree(t, map[string]string{
		"logs/year=2025/month=12/a.json":                      `{"status": 200, "size": 10, "path": "/a"}` + "\n" + `{"status": 404, "size": 20, "path": "/b"}` + "\n",
		"logs/year=2026/month=1/b.json":                       `{"status": 500, "size": 30, "path": "/c"}` + "\n",
		"logs/year=2026/month=11/c.json":                      `{"status": 200, "size": 40, "path": "/d", "year": 1999}` + "\n\n",
		"logs/year=__HIVE_DEFAULT_PARTITION__/month=2/d.json": `{"status": 201}` + "\n",
		"logs/year=2026/month=11/_SUCCESS":                    "",
	})
}

func logsSpec(dir string) connector.TableSpec {
	return connector.TableSpec{
		Name: "logs", Using: "json", Location: dir + "/logs",
		Schema: schema(field("status", types.Int), field("size", types.BigInt), field("path", types.String),
			field("year", types.Int), field("month", types.Int)),
		PartitionBy: []string{"year", "month"},
	}
}

func TestSourceReadsPartitions(t *testing.T) {
	dir := logsTree(t)
	src, err := NewSource(context.Background(), logsSpec(dir))
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, src)
	want := []string{
		"200|10|/a|2025|12", "404|20|/b|2025|12",
		"500|30|/c|2026|1",
		"200|40|/d|2026|11", // the folder wins over "year" inside the file
		"201|NULL|NULL|NULL|2",
	}
	if !reflect.DeepEqual(sorted(got), sorted(want)) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

func TestSourceProjection(t *testing.T) {
	dir := logsTree(t)
	src, err := NewSource(context.Background(), logsSpec(dir))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cols []string
		want []string
	}{
		{[]string{"month", "status"}, []string{"12|200", "12|404", "1|500", "11|200", "2|201"}},
		{[]string{"size"}, []string{"10", "20", "30", "40", "NULL"}},
		{[]string{"year"}, []string{"2025", "2025", "2026", "2026", "NULL"}},
		{[]string{}, []string{"", "", "", "", ""}},
		{[]string{"_row", "path"}, []string{"1|/a", "2|/b", "1|/c", "1|/d", "1|NULL"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.cols, ","), func(t *testing.T) {
			p, err := src.PushProjection(c.cols)
			if err != nil {
				t.Fatal(err)
			}
			if p.Schema().NumFields() != len(c.cols) {
				t.Fatalf("schema %s", p.Schema())
			}
			for i, f := range p.Schema().Fields() {
				if f.Name != c.cols[i] {
					t.Fatalf("schema %s", p.Schema())
				}
			}
			got := readAll(t, p)
			if !reflect.DeepEqual(sorted(got), sorted(c.want)) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	if _, err := src.PushProjection([]string{"nope"}); err == nil {
		t.Error("projecting a missing column succeeded")
	}
}

func TestSourceFileColumnAndSplits(t *testing.T) {
	dir := logsTree(t)
	src, err := NewSource(context.Background(), logsSpec(dir))
	if err != nil {
		t.Fatal(err)
	}
	p, err := src.PushProjection([]string{"_file", "status"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range readAll(t, p) {
		if !strings.HasPrefix(r, "file://") || !strings.Contains(r, ".json|") {
			t.Errorf("row %q: _file is not a file:// URI", r)
		}
	}
	ctx := context.Background()
	off, err := src.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	splits, err := src.Plan(ctx, nil, off)
	if err != nil {
		t.Fatal(err)
	}
	if len(splits) != 4 {
		t.Fatalf("%d splits, want 4", len(splits))
	}
	for i, sp := range splits {
		fs := sp.(*Split)
		if sp.ID() != fs.URI+"@"+fs.ETag || fs.ETag == "" || sp.Size() <= 0 {
			t.Errorf("split %d: %+v", i, fs)
		}
		if i > 0 && splits[i-1].(*Split).Key >= fs.Key {
			t.Errorf("splits not in key order")
		}
	}
	// Replaying the same offset gives the same splits; from == to gives none.
	again, _ := src.Plan(ctx, nil, off)
	if !reflect.DeepEqual(splits, again) {
		t.Error("Plan is not deterministic")
	}
	none, _ := src.Plan(ctx, off, off)
	if len(none) != 0 {
		t.Errorf("Plan(off, off) = %d splits", len(none))
	}
	if d := p.(connector.Describer).Describe(); !strings.Contains(d, "json location=") || !strings.Contains(d, "columns=[_file, status]") {
		t.Errorf("Describe = %q", d)
	}
}

func TestSourceErrors(t *testing.T) {
	dir := logsTree(t)
	ctx := context.Background()
	// Unknown keys are the registry's to reject (registry_test.go).
	bad := logsSpec(dir)
	bad.PartitionBy = []string{"day"}
	if _, err := NewSource(ctx, bad); err == nil {
		t.Error("missing partition column accepted")
	}
	bad = logsSpec(dir)
	bad.Using = "xml"
	if _, err := NewSource(ctx, bad); err == nil {
		t.Error("xml accepted")
	}
	bad = logsSpec(dir)
	bad.Location = ""
	if _, err := NewSource(ctx, bad); err == nil {
		t.Error("empty location accepted")
	}
	// A partition folder that does not parse as the column's type.
	dir2 := writeTree(t, map[string]string{"t/year=abc/a.json": `{"status": 1}`})
	spec := logsSpec(dir2)
	spec.Location = dir2 + "/t"
	src, err := NewSource(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	off, _ := src.Latest(ctx)
	splits, err := src.Plan(ctx, nil, off)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.Open(ctx, splits[0]); err == nil || !strings.Contains(err.Error(), `"abc" is not a valid INT`) {
		t.Errorf("bad partition value error = %v", err)
	}
}

func TestSourceGzipAndGlob(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a/x.json": `{"n": 1}` + "\n",
		"a/y.json": `{"n": 2}` + "\n",
		"a/z.csv":  "n\n3\n",
	})
	spec := connector.TableSpec{Name: "t", Using: "json", Location: dir + "/a/*.json", Schema: schema(field("n", types.BigInt))}
	src, err := NewSource(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, src); !reflect.DeepEqual(got, []string{"1", "2"}) {
		t.Fatalf("got %v", got)
	}
}

func TestSourceLocatedInsidePartition(t *testing.T) {
	dir := logsTree(t)
	spec := logsSpec(dir)
	for _, loc := range []string{dir + "/logs/year=2026", dir + "/logs/year=2026/", dir + "/logs/year=2026/month=1*/*.json"} {
		spec.Location = loc
		src, err := NewSource(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		got := readAll(t, src)
		want := []string{"200|40|/d|2026|11", "500|30|/c|2026|1"}
		if !reflect.DeepEqual(sorted(got), want) {
			t.Errorf("%s: got %v, want %v", loc, got, want)
		}
	}
}

func TestDescribe(t *testing.T) {
	dir := logsTree(t)
	src, err := NewSource(context.Background(), logsSpec(dir))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := src.PushProjection([]string{"status", "size"})
	readAll(t, p)
	want := "json location=file://" + dir + "/logs/ files=4 pruned=0 columns=[status, size]"
	if got := p.(*Source).Describe(); got != want {
		t.Errorf("Describe = %q\nwant       %q", got, want)
	}
}

func TestDeadLetterLocation(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"t/a.json": `{"status": 200}` + "\n" + `{"status": "abc"}` + "\n" + `not json` + "\n" + `{"status": 201}` + "\n",
		"t/b.json": `{"status": 1}` + "\n",
	})
	spec := connector.TableSpec{Name: "t", Using: "json", Location: dir + "/t",
		Options: map[string]string{"dead_letter_location": dir + "/dlq"},
		Schema:  schema(field("status", types.Int))}
	for range 2 { // a second read overwrites the report, never adds one
		src, err := NewSource(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, src); len(got) != 5 { // PERMISSIVE keeps bad rows as NULLs
			t.Errorf("rows %v", got)
		}
	}
	entries, err := os.ReadDir(dir + "/dlq")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Fatalf("%d dead-letter files, want 1", len(entries))
	}
	data, _ := os.ReadFile(dir + "/dlq/" + entries[0].Name())
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"line":2`) || !strings.Contains(lines[1], `"line":3`) || !strings.Contains(lines[1], "not json") || !strings.Contains(lines[0], "a.json") {
		t.Errorf("dead letters:\n%s", data)
	}
}
