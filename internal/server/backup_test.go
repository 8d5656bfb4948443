package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestBackupAPI: POST /api/v1/backup is admin's; the server copies its
// own data dir; a second backup to the same place is refused (400).
func TestBackupAPI(t *testing.T) {
	f := newReloadFixture(t)
	dest := filepath.Join(f.dir, "backup")
	f.do(403, "bob", APIBackupPath, BackupRequest{Dest: dest})
	if _, err := os.Stat(filepath.Join(dest, "manifest.json")); !os.IsNotExist(err) {
		t.Fatalf("a read user's request wrote a backup: %v", err)
	}
	f.do(400, "alice", APIBackupPath, map[string]any{})
	var res BackupResponse
	if err := json.Unmarshal(f.do(200, "alice", APIBackupPath, BackupRequest{Dest: dest}), &res); err != nil {
		t.Fatal(err)
	}
	if res.Files == 0 || res.Bytes == 0 {
		t.Fatalf("backup answered %+v", res)
	}
	if _, err := os.Stat(filepath.Join(dest, "catalog.json")); err != nil {
		t.Fatalf("no catalog in the backup: %v", err)
	}
	f.do(400, "alice", APIBackupPath, BackupRequest{Dest: dest})
}
