package file

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sluice/internal/storage"
)

func listKeys(t *testing.T, loc string, opts map[string]string) []string {
	t.Helper()
	ctx := context.Background()
	st, prefix, err := storage.Resolve(ctx, loc, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := newLocation(st, loc, prefix)
	if err != nil {
		t.Fatal(err)
	}
	so, err := parseSourceOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	files, err := l.list(ctx, &so, nil)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range files {
		rel := strings.TrimPrefix(l.keyURI(f.Key), st.String())
		keys = append(keys, strings.TrimPrefix(rel, "/"))
	}
	return keys
}

func TestListing(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"logs/a.json":                    "{}",
		"logs/b.json.gz":                 "x",
		"logs/c.csv":                     "x",
		"logs/.hidden.json":              "x",
		"logs/_SUCCESS":                  "",
		"logs/_temporary/0/x.json":       "x",
		"logs/sub/d.json":                "x",
		"logs/sub/deeper/e.json":         "x",
		"logs/.git/f.json":               "x",
		"logs/year=2026/month=11/g.json": "x",
		"logs/year=2026/month=12/h.json": "x",
		"logs-other/i.json":              "x",
	})
	cases := []struct {
		name string
		loc  string
		opts map[string]string
		want []string
	}{
		{"folder recursive", dir + "/logs", nil, []string{"a.json", "b.json.gz", "c.csv", "sub/d.json", "sub/deeper/e.json", "year=2026/month=11/g.json", "year=2026/month=12/h.json"}},
		{"folder with slash", dir + "/logs/", nil, []string{"a.json", "b.json.gz", "c.csv", "sub/d.json", "sub/deeper/e.json", "year=2026/month=11/g.json", "year=2026/month=12/h.json"}},
		{"not recursive keeps partitions", dir + "/logs", map[string]string{"recursive": "false"}, []string{"a.json", "b.json.gz", "c.csv", "year=2026/month=11/g.json", "year=2026/month=12/h.json"}},
		{"single file", dir + "/logs/a.json", nil, []string{"a.json"}},
		{"file uri", "file://" + dir + "/logs/sub", nil, []string{"d.json", "deeper/e.json"}},
		{"star", dir + "/logs/*.json", nil, []string{"a.json"}},
		{"star gz", dir + "/logs/*.json.gz", nil, []string{"b.json.gz"}},
		{"double star", dir + "/logs/**/*.json", nil, []string{"a.json", "sub/d.json", "sub/deeper/e.json", "year=2026/month=11/g.json", "year=2026/month=12/h.json"}},
		{"question", dir + "/logs/?.json", nil, []string{"a.json"}},
		{"class", dir + "/logs/[ab].json*", nil, []string{"a.json", "b.json.gz"}},
		{"braces", dir + "/logs/{sub,year=2026/month=12}/*.json", nil, []string{"sub/d.json", "year=2026/month=12/h.json"}},
		{"partition glob", dir + "/logs/year=*/month=1?/*", nil, []string{"year=2026/month=11/g.json", "year=2026/month=12/h.json"}},
		{"path_glob_filter", dir + "/logs", map[string]string{"path_glob_filter": "*.json"}, []string{"a.json", "sub/d.json", "sub/deeper/e.json", "year=2026/month=11/g.json", "year=2026/month=12/h.json"}},
		{"skip_files", dir + "/logs", map[string]string{"skip_files": "sub/**, *.csv"}, []string{"a.json", "b.json.gz", "year=2026/month=11/g.json", "year=2026/month=12/h.json"}},
		{"missing folder", dir + "/nothing/", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := listKeys(t, c.loc, c.opts)
			// Keys are relative to the store root, which Resolve puts at the
			// deepest existing folder: compare the tails.
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if !strings.HasSuffix(got[i], c.want[i]) {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}

func TestListingMemStoreHiddenAndMarkers(t *testing.T) {
	ctx := context.Background()
	storage.DropMemStore("listing")
	st := storage.NamedMemStore("listing")
	for _, k := range []string{"t/a.json", "t/dir_$folder$", "t/_x/b.json", "t/.c.json", "t/k=v/d.json", "u/e.json"} {
		if err := st.Put(ctx, k, strings.NewReader("{}"), false); err != nil {
			t.Fatal(err)
		}
	}
	got := listKeys(t, "mem://listing/t", nil)
	want := []string{"t/a.json", "t/k=v/d.json"}
	for i := range got {
		got[i] = strings.TrimPrefix(got[i], "listing/")
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestSourceOptionErrors(t *testing.T) {
	for _, opts := range []map[string]string{
		{"recursive": "maybe"},
		{"sample_rows": "-1"},
		{"max_bytes_per_trigger": "lots"},
		{"max_file_age": "soon"},
		{"discovery": "notify"},
		{"queue": "localhost:4222"},
		{"discovery_backfill": "sometimes"},
		{"path_glob_filter": "[x"},
		{"file_prefix": "a/b"},
	} {
		if _, err := parseSourceOptions(opts); err == nil {
			t.Errorf("parseSourceOptions(%v) succeeded", opts)
		}
	}
	o, err := parseSourceOptions(map[string]string{"max_bytes_per_trigger": "64MB", "max_file_age": "7 days", "partition_inference": "off"})
	if err != nil {
		t.Fatal(err)
	}
	if o.MaxBytesPerTrigger != 64<<20 || o.MaxFileAge.Hours() != 168 || o.PartitionInference {
		t.Errorf("parsed %+v", o)
	}
}

func TestIsHiddenRel(t *testing.T) {
	for rel, want := range map[string]bool{
		"a.json": false, "dir/": true, "x_$folder$": true, "_SUCCESS": true, ".a": true,
		"k=v/a.json": false, "k=v/_tmp/a.json": true, "__HIVE_DEFAULT_PARTITION__/a": true,
		"k=__HIVE_DEFAULT_PARTITION__/a": false, "": true,
	} {
		if got := isHiddenRel(rel); got != want {
			t.Errorf("isHiddenRel(%q) = %v, want %v", rel, got, want)
		}
	}
}
