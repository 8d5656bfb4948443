package engine

import (
	"path/filepath"
	"testing"

	"sluice/internal/job"
)

// TestLocalStreams: the streams this process ran, by lower-case stream
// name, with their totals; a stream never run here is not listed.
func TestLocalStreams(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "in", "a.json"), `{"k": "a"}`+"\n"+`{"k": "b"}`+"\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if got := eng.LocalStreams(); len(got) != 0 {
		t.Fatalf("before any stream: %+v", got)
	}
	mustExecAll(t, eng,
		"CREATE TABLE src (k STRING) USING json LOCATION '"+filepath.Join(dir, "in")+"/'",
		"CREATE TABLE dst (k STRING) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
		"INSERT STREAM INTO dst SELECT k FROM src WITH (name = 'Feed', trigger = 'available_now')",
	)
	got := eng.LocalStreams()
	st, ok := got["feed"]
	if len(got) != 1 || !ok || st.Name != "Feed" || st.State != job.StateSuccess || st.RowsIn != 2 {
		t.Fatalf("after a stream ran: %+v", got)
	}
}
