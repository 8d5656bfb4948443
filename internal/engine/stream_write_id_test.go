package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStreamReplayOverwrites (issue 25): a stream into a local index
// without an id replays an uncommitted epoch under the ids it wrote, so
// the replay overwrites: with the write id its checkpoint's metadata
// keeps, and in a checkpoint of a previous version (epochs, no
// metadata), whose empty write id gives the ids of before.
func TestStreamReplayOverwrites(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		dir := t.TempDir()
		in, cp := filepath.Join(dir, "in"), filepath.Join(dir, "cp")
		for _, d := range []string{in, cp} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(in, "a.json"), []byte("{\"k\": \"a\"}\n{\"k\": \"a\"}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if legacy {
			// The ids an earlier version wrote: no write id.
			if err := os.WriteFile(filepath.Join(cp, "metadata"), []byte(`{"id": ""}`), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		eng := newTestEngine(t)
		stream := "INSERT STREAM INTO out SELECT k FROM src WITH (name = 's', trigger = 'once', checkpoint_location = '" + cp + "')"
		mustExecAll(t, eng,
			"CREATE TABLE src (k STRING) USING json LOCATION '"+in+"/'",
			"CREATE TABLE out (k STRING) USING index OPTIONS (path '"+filepath.Join(dir, "out")+"')",
			stream)
		if legacy {
			if err := os.Remove(filepath.Join(cp, "metadata")); err != nil {
				t.Fatal(err)
			}
		}
		// Epoch 0 as if the process died before committing it.
		if err := os.Remove(filepath.Join(cp, "commits", "0")); err != nil {
			t.Fatal(err)
		}
		mustExec(t, eng, stream)
		if got := strings.Join(queryRows(t, eng, "SELECT k FROM out"), " "); got != "a a" {
			t.Errorf("legacy %v: after the replay the index holds %q, want the 2 rows once", legacy, got)
		}
	}
}
