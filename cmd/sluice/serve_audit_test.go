package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeAuditLog: `sluice serve --audit-log FILE` logs a statement
// that `sluice sql --server` runs as one JSON line, in a file of mode
// 0600, flushed when SIGTERM stops the server.
func TestServeAuditLog(t *testing.T) {
	root := t.TempDir()
	audit := filepath.Join(root, "audit.log")
	p := startServe(t, filepath.Join(root, "data"), "--audit-log", audit)
	mustRemote(t, p.url, "SELECT 41 + 1 AS answer")
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("sluice serve after SIGTERM: %v: %s", err, p.log())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("sluice serve did not exit within 30s of SIGTERM: %s", p.log())
	}
	raw, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		if r["statement"] == "SELECT 41 + 1 AS answer" {
			found = true
			if r["endpoint"] != "POST /api/v1/statement" || r["outcome"] != "ok" || r["rows"] != 1.0 || r["user"] != "" {
				t.Errorf("the statement's record: %v", r)
			}
		}
	}
	if !found {
		t.Errorf("the statement is not in the audit log:\n%s", raw)
	}
	if fi, err := os.Stat(audit); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode %o, want 600", fi.Mode().Perm())
	}
}
