package registry

import (
	"context"
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
