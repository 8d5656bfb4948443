package file

import (
	"context"
	"strings"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// A LOCATION with a typo used to read as an empty table, silently.
func TestMissingLocation(t *testing.T) {
	dir := writeTree(t, map[string]string{"empty/.keep": ""})
	var warnings []string
	ctx := connector.WithWarn(context.Background(), func(m string) { warnings = append(warnings, m) })

	// Inference needs files: a missing location is an error that says so.
	_, _, err := Infer(ctx, connector.TableSpec{Name: "t", Using: "json", Location: dir + "/nope/"})
	if err == nil || !strings.Contains(err.Error(), "location "+dir+"/nope/ does not exist") {
		t.Fatalf("Infer on a missing location: %v", err)
	}
	// An existing empty folder keeps its own message.
	_, _, err = Infer(ctx, connector.TableSpec{Name: "t", Using: "json", Location: dir + "/empty/"})
	if err == nil || !strings.Contains(err.Error(), "no files at") {
		t.Fatalf("Infer on an empty folder: %v", err)
	}

	// Declared columns: a missing location is allowed (it is created on
	// the first INSERT), but reading it warns, once per source.
	for _, loc := range []string{dir + "/nope/", dir + "/nope/*.json", dir + "/nope.json"} {
		warnings = nil
		src, err := NewSource(ctx, connector.TableSpec{Name: "t", Using: "json", Location: loc, Schema: schema(field("n", types.BigInt))})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if _, err := src.Latest(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "location "+loc+" does not exist") {
			t.Fatalf("%s: warnings %q", loc, warnings)
		}
	}
	warnings = nil
	src, err := NewSource(ctx, connector.TableSpec{Name: "t", Using: "json", Location: dir + "/empty/", Schema: schema(field("n", types.BigInt))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.Latest(ctx); err != nil || len(warnings) != 0 {
		t.Fatalf("empty folder: err %v, warnings %q", err, warnings)
	}
}
