package engine

import (
	"strings"
	"testing"
)

// TestDescribeExtendedRedacts: DESCRIBE EXTENDED shows a table's
// storage options and location, never its secrets.
func TestDescribeExtendedRedacts(t *testing.T) {
	eng := newTestEngine(t)
	mustExec(t, eng, "CREATE TABLE s (x INT) USING json LOCATION 'http://bob:hunter2@example.invalid/x.json' OPTIONS (access_key 'AKID', secret_key 'sekrit', multiline 'false')")
	rows := strings.Join(sortedRows(t, eng, "DESCRIBE EXTENDED s"), "\n")
	for _, secret := range []string{"sekrit", "hunter2", "AKID"} {
		if strings.Contains(rows, secret) {
			t.Errorf("DESCRIBE EXTENDED shows %q:\n%s", secret, rows)
		}
	}
	if !strings.Contains(rows, "multiline=false") {
		t.Errorf("DESCRIBE EXTENDED lost the plain option:\n%s", rows)
	}
}
