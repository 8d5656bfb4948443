package catalog

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sluice/internal/formatver"
)

// TestOpenRefusesNewerFormat is the downgrade refusal: a catalog or a
// secrets store written in a version newer than this binary reads stops
// Open with the file, its version and the binary that reads it, and
// the file is left as it was.
func TestOpenRefusesNewerFormat(t *testing.T) {
	for _, tc := range []struct {
		file, content string
		format        *formatver.Format
	}{
		{fileName, `{"version": %d, "format_reader": "0.x (commit f00dfee or later)", "tables": []}`, formatver.Catalog},
		{SecretsFile, `{"version": %d, "format_reader": "0.x (commit f00dfee or later)", "secrets": {}}`, formatver.Secrets},
	} {
		t.Run(tc.file, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, tc.file)
			next := tc.format.Current() + 1
			content := strings.Replace(tc.content, "%d", strconv.Itoa(next), 1)
			if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Open(dir)
			if err == nil {
				t.Fatal("Open read a newer format")
			}
			for _, want := range []string{p, "format version " + strconv.Itoa(next), "needs sluice 0.x (commit f00dfee or later)"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("Open: %v, want it to name %q", err, want)
				}
			}
			if b, _ := os.ReadFile(p); string(b) != content {
				t.Errorf("%s changed to %s", tc.file, b)
			}
		})
	}
}

// TestSaveStampsFormat: a written catalog names the oldest binary that
// reads its version.
func TestSaveStampsFormat(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.saveLocked(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, fileName))
	if err != nil {
		t.Fatal(err)
	}
	if want := `"format_reader": "` + formatver.Catalog.Reader(1) + `"`; !strings.Contains(string(b), want) {
		t.Errorf("catalog.json = %s, want %s", b, want)
	}
}
