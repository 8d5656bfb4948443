package streams

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"sluice/internal/catalog"
	"sluice/internal/job"
	"sluice/internal/sql"
	"sluice/internal/storage"
)

// catalogHost is a Host with a catalog, no run and no checkpoint that
// opens; any other method is not expected to be called (it panics).
type catalogHost struct {
	Host
	cat  *catalog.Catalog
	runs *job.Manager[*Result]
}

func newCatalogHost(t *testing.T) *catalogHost {
	cat, err := catalog.Open("")
	if err != nil {
		t.Fatal(err)
	}
	return &catalogHost{cat: cat, runs: job.NewManager(job.Config[*Result]{Message: message})}
}

func (h *catalogHost) Catalog() *catalog.Catalog { return h.cat }
func (h *catalogHost) Runs() Runs                { return h.runs }
func (h *catalogHost) Background() bool          { return false }
func (h *catalogHost) ResolveCheckpoint(context.Context, string) (storage.Store, string, error) {
	return nil, "", errors.New("no checkpoint here")
}

// TestSpecJSON: a stream's stored definition keeps its keys (data dirs
// written by older binaries must load), and Wrap is never stored.
func TestSpecJSON(t *testing.T) {
	raw, err := json.Marshal(Spec{Table: "default.out", Trigger: "1 minute", Checkpoint: "/cp", Options: map[string]string{"workers": "2"},
		Desired: job.DesiredRunning, Source: "default.src", Wrap: &SinkWrap{}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"table":"default.out","trigger":"1 minute","checkpoint":"/cp","options":{"workers":"2"},"desired":"running","source":"default.src"}`
	if string(raw) != want {
		t.Errorf("Spec JSON\n got %s\nwant %s", raw, want)
	}
}

// TestExecuteShowDescribe: SHOW and DESCRIBE STREAM read the catalog's
// definition; a stream neither running here nor with a checkpoint to
// read is stopped; other statements are not the package's.
func TestExecuteShowDescribe(t *testing.T) {
	h := newCatalogHost(t)
	raw, _ := json.Marshal(Spec{Table: "default.out", Trigger: "1 minute", Checkpoint: "/cp"})
	if err := h.cat.PutObject(&catalog.Object{Kind: "stream", Name: "s1", SQL: "INSERT STREAM INTO out SELECT * FROM src", Options: raw}, false); err != nil {
		t.Fatal(err)
	}
	m := New(h)
	exec := func(text string) (*Result, bool, error) {
		st, err := sql.ParseOne(text)
		if err != nil {
			t.Fatal(err)
		}
		return m.Execute(t.Context(), st)
	}
	r, ok, err := exec("SHOW STREAMS")
	if !ok || err != nil || len(r.Rows) != 1 {
		t.Fatalf("SHOW STREAMS: %v, %v, %v", r, ok, err)
	}
	if got, want := r.Rows[0], []string{"s1", "stopped", "default.out", "1 minute", "", "/cp"}; !slices.Equal(got, want) {
		t.Errorf("SHOW STREAMS row %q, want %q", got, want)
	}
	r, _, err = exec("DESCRIBE STREAM s1")
	if err != nil || len(r.Columns) != 2 || r.Rows[0][0] != "name" || r.Rows[1][1] != "INSERT STREAM INTO out SELECT * FROM src" {
		t.Errorf("DESCRIBE STREAM: %v, %v", r, err)
	}
	if _, _, err := exec("DESCRIBE STREAM nope"); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("DESCRIBE STREAM nope: %v", err)
	}
	if _, ok, _ := exec("SHOW TABLES"); ok {
		t.Error("SHOW TABLES taken as a stream statement")
	}
	if st, ok := m.Status(t.Context(), "s1"); !ok || st.State != "stopped" {
		t.Errorf("Status(s1) = %v, %v", st, ok)
	}
}
