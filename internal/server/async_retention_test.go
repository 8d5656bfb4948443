package server

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestAsyncRetentionCancelledAndFailed: a cancelled and a failed query
// are kept the retention after they ended, then swept like a successful
// one (README, Async queries).
func TestAsyncRetentionCancelledAndFailed(t *testing.T) {
	f := newFixture(t, 3)
	f.close()
	f.retention = 400 * time.Millisecond
	f.open()
	f.sql(200, "CREATE TABLE out (id BIGINT) USING json LOCATION '"+f.out+"/'")
	cancelled := f.submit("INSERT STREAM INTO out SELECT id FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	f.waitAsync(cancelled, asyncRunning)
	f.do("DELETE", AsyncQueryPath+"/"+cancelled, 204)
	f.waitAsync(cancelled, asyncCancelled)
	failed := f.submit("SELECT CAST('x' AS BIGINT)")
	f.waitAsync(failed, asyncFailed)
	dir := filepath.Join(f.dir, "data", "queries")
	for _, id := range []string{cancelled, failed} {
		deadline := time.Now().Add(10 * time.Second)
		for {
			if _, err := os.Stat(filepath.Join(dir, id+".json")); os.IsNotExist(err) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("query %s outlived its retention", id)
			}
			time.Sleep(50 * time.Millisecond)
		}
		f.do("GET", AsyncQueryPath+"/"+id, 400)
	}
}
