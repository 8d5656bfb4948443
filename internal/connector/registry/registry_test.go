package registry

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/types"
)

func TestLookup(t *testing.T) {
	for _, name := range []string{"json", "CSV", " parquet "} {
		f, err := Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", name, err)
		}
		if f.NewSource == nil || f.NewSink == nil || f.Infer == nil || f.Kind != connector.KindBoth || len(f.OptionKeys) == 0 {
			t.Errorf("%s: incomplete factory %+v", name, f)
		}
	}
	_, err := Lookup("xml")
	if err == nil || !strings.HasPrefix(err.Error(), `unknown connector "xml" (known: `) || !strings.Contains(err.Error(), "csv") || !strings.Contains(err.Error(), "parquet") {
		t.Errorf("Lookup(xml) error = %v", err)
	}
}

func TestNames(t *testing.T) {
	names := Names()
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Fatalf("Names not sorted and unique: %v", names)
		}
	}
	if len(All()) != len(names) {
		t.Error("All and Names disagree")
	}
}

func TestValidateOptions(t *testing.T) {
	cases := []struct {
		using   string
		opts    map[string]string
		wantErr string
	}{
		{"json", map[string]string{"compression": "gzip", "recursive": "false", "region": "eu-west-1", "s3.endpoint": "http://127.0.0.1:1"}, ""},
		{"csv", map[string]string{"header": "true", "delimiter": ";"}, ""},
		{"json", map[string]string{"header": "true"}, `unknown option "header" for a json table (known: `},
		{"parquet", map[string]string{"colour": "red"}, "max_rows_per_file"},
		{"json", map[string]string{"recursive": "perhaps"}, "recursive"},
		{"json", map[string]string{"mode": "WHATEVER"}, "mode"},
		{"nosuch", nil, `unknown connector "nosuch"`},
	}
	for _, c := range cases {
		err := ValidateOptions(c.using, c.opts)
		if c.wantErr == "" {
			if err != nil {
				t.Errorf("ValidateOptions(%s, %v): %v", c.using, c.opts, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("ValidateOptions(%s, %v) = %v, want it to mention %q", c.using, c.opts, err, c.wantErr)
		}
	}
	// Secrets are never echoed.
	err := ValidateOptions("json", map[string]string{"secret_key": "hunter2"})
	if err != nil && strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error leaks a secret: %v", err)
	}
}

func TestOpenThroughRegistry(t *testing.T) {
	f, _ := Lookup("json")
	spec := connector.TableSpec{Name: "t", Using: "json", Location: t.TempDir(),
		Schema: arrow.NewSchema([]arrow.Field{{Name: "n", Type: types.BigInt, Nullable: true}}, nil)}
	src, err := f.NewSource(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := src.(connector.FilterPusher); !ok {
		t.Error("file source does not push filters")
	}
	if _, ok := src.(connector.ProjectionPusher); !ok {
		t.Error("file source does not push projections")
	}
}

func TestUnknownKeySuggestsTheClosest(t *testing.T) {
	for _, c := range []struct {
		using string
		opts  map[string]string
		want  string
	}{
		{"json", map[string]string{"compresion": "gzip"}, `unknown option "compresion" for a json table; did you mean "compression"?`},
		{"csv", map[string]string{"delimeter": ";"}, `unknown option "delimeter" for a csv table; did you mean "delimiter"?`},
		{"index", map[string]string{"bogus": "1"}, `unknown option "bogus" for a index table (known: action, dead_letter_location, id, path, text_fields)`},
		{"opensearch", map[string]string{"index": "x", "indx": "y"}, `unknown option "indx" for a opensearch table; did you mean "index"?`},
		{"console", map[string]string{"x": "1"}, `unknown option "x" for a console table (it takes no options)`},
	} {
		err := ValidateOptions(c.using, c.opts)
		if err == nil || err.Error() != c.want {
			t.Errorf("ValidateOptions(%s, %v) = %v, want %q", c.using, c.opts, err, c.want)
		}
	}
	if _, err := Lookup("jsn"); err == nil || !strings.Contains(err.Error(), `did you mean "json"?`) {
		t.Errorf("Lookup(jsn) = %v", err)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"compresion", "compression", 1}, {"delimeter", "delimiter", 1}, {"ab", "ba", 1}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func TestIndexDefaultsToTheDataDir(t *testing.T) {
	dir := t.TempDir()
	spec := connector.TableSpec{Name: "Hot", Using: "index", Options: map[string]string{}}
	managed, err := Prepare(&spec, connector.Env{DataDir: dir})
	if err != nil || !managed || spec.Options["path"] != dir+"/indexes/hot" {
		t.Fatalf("Prepare = %v, %v, path %q", managed, err, spec.Options["path"])
	}
	// Without a data dir, $SLUICE_DATA_DIR is where the index goes: the
	// only place the variable is read.
	env := t.TempDir()
	t.Setenv("SLUICE_DATA_DIR", env)
	spec = connector.TableSpec{Name: "hot", Using: "index"}
	if _, err := Prepare(&spec, connector.Env{}); err != nil || spec.Options["path"] != env+"/indexes/hot" {
		t.Fatalf("Prepare without data dir: %v, path %q", err, spec.Options["path"])
	}
	// A path the user chose is kept, and the table is external.
	spec = connector.TableSpec{Name: "hot", Using: "index", Options: map[string]string{"path": "/somewhere"}}
	if managed, err := Prepare(&spec, connector.Env{DataDir: dir}); err != nil || managed || spec.Options["path"] != "/somewhere" {
		t.Fatalf("Prepare with a path: %v, %v, %q", managed, err, spec.Options["path"])
	}
	spec = connector.TableSpec{Name: "../x", Using: "index"}
	if _, err := Prepare(&spec, connector.Env{DataDir: dir}); err == nil {
		t.Fatal("an index named ../x was placed")
	}
	// A file table without LOCATION is managed, in the data dir.
	spec = connector.TableSpec{Name: "Logs", Using: "json"}
	if managed, err := Prepare(&spec, connector.Env{DataDir: dir}); err != nil || !managed || spec.Location != filepath.Join(dir, "tables", "logs")+string(filepath.Separator) {
		t.Fatalf("json without LOCATION: %v, %v, %q", managed, err, spec.Location)
	}
	spec = connector.TableSpec{Name: "../x", Using: "json"}
	if _, err := Prepare(&spec, connector.Env{DataDir: dir}); err == nil {
		t.Fatal("a file table named ../x was placed")
	}
}

func TestSessionSettingsOnlyReachFileTables(t *testing.T) {
	env := connector.Env{Settings: map[string]string{"s3.endpoint": "http://127.0.0.1:9", "s3.region": "eu-west-1"}}
	f, _ := Lookup("json")
	spec := f.Session(connector.TableSpec{Options: map[string]string{"region": "us-east-1"}}, env)
	if spec.Options["endpoint"] != "http://127.0.0.1:9" || spec.Options["region"] != "us-east-1" {
		t.Errorf("json session options %v", spec.Options)
	}
	env.Settings["split_size"] = "16B"
	if spec := f.Session(connector.TableSpec{}, env); spec.Options["split_size"] != "16B" {
		t.Errorf("SET split_size did not reach a json table: %v", spec.Options)
	}
	if spec := f.Session(connector.TableSpec{Options: map[string]string{"split_size": "0"}}, env); spec.Options["split_size"] != "0" {
		t.Errorf("SET split_size overrode the table's own: %v", spec.Options)
	}
	if f, _ := Lookup("opensearch"); f.Session != nil {
		t.Error("opensearch tables take s3.* settings")
	}
}
