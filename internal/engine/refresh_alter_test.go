package engine

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/usererr"
)

// TestAlterRefresh: a view and a skipping index take the same ALTER:
// the refresh settings are recorded, an option ALTER cannot change is the
// user's error naming those it can, and, in an engine with background
// streams, auto_refresh = true starts the refresh and false stops it.
func TestAlterRefresh(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"id\": 1, \"c\": \"x\"}\n")
	bg := newGoBackground()
	defer bg.stop()
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), Background: bg})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	exec := func(q string) string {
		t.Helper()
		r, err := eng.Execute(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return r[len(r)-1].Message
	}
	exec("CREATE TABLE t (id INT, c STRING) USING json LOCATION '" + in + "/'")
	exec("CREATE MATERIALIZED VIEW v AS SELECT id, c FROM t")
	exec("CREATE SKIPPING INDEX ON t (id MIN_MAX)")
	for _, tc := range []struct{ alter, stream, spec string }{
		{"ALTER MATERIALIZED VIEW v", "mv_v", "mv"},
		{"ALTER SKIPPING INDEX ON t", "si_flint_spark_catalog_default_t_skipping_index", "si"},
	} {
		_, err := eng.Execute(ctx, tc.alter+" WITH (auto_refresh = true, output_mode = 'update')")
		if err == nil || !strings.Contains(err.Error(), `option "output_mode" cannot be changed (auto_refresh, refresh_interval, incremental_refresh, scheduler_mode`) {
			t.Errorf("%s output_mode: %v", tc.alter, err)
		}
		var ue usererr.UserError
		if !errors.As(err, &ue) || ue.UserErrorKind() != usererr.Invalid {
			t.Errorf("%s output_mode: %v is not the user's error", tc.alter, err)
		}
		if msg := exec(tc.alter + " WITH (auto_refresh = true, refresh_interval = '1 hour', scheduler_mode = 'internal')"); !strings.Contains(msg, "its refresh started") {
			t.Errorf("%s auto_refresh = true: %q", tc.alter, msg)
		}
		if !eng.jobs.IsRunning(tc.stream) {
			t.Errorf("%s auto_refresh = true: %s is not running", tc.alter, tc.stream)
		}
		// The stored definitions (a view's, an index's) share these keys.
		kind, name := "mview", "v"
		if tc.spec == "si" {
			kind, name = "flint_index", "fi_flint_spark_catalog_default_t_skipping_index"
		}
		var spec struct {
			Interval string            `json:"refresh_interval"`
			Options  map[string]string `json:"options"`
		}
		if o, err := eng.catalog.Object(kind, name); err != nil {
			t.Fatalf("%s: %v", tc.alter, err)
		} else if err := json.Unmarshal(o.Options, &spec); err != nil {
			t.Fatalf("%s: %v", tc.alter, err)
		}
		interval, mode := spec.Interval, spec.Options["scheduler_mode"]
		if interval != "1 hour" || mode != "internal" {
			t.Errorf("%s: recorded refresh_interval %q, scheduler_mode %q", tc.alter, interval, mode)
		}
		if msg := exec(tc.alter + " WITH (auto_refresh = false)"); strings.Contains(msg, "started") {
			t.Errorf("%s auto_refresh = false: %q", tc.alter, msg)
		}
		if eng.jobs.IsRunning(tc.stream) {
			t.Errorf("%s auto_refresh = false: %s still runs", tc.alter, tc.stream)
		}
	}
}
