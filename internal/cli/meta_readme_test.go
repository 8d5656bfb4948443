package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeListsMetaCommands: every spelling of every meta command is
// in the README's table, so a new one cannot go undocumented.
func TestReadmeListsMetaCommands(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, m := range metaCommands {
		for _, n := range m.names {
			if !strings.Contains(readme, "`"+n+"`") && !strings.Contains(readme, "`"+n+" ") {
				t.Errorf("README does not list the meta command %s", n)
			}
		}
	}
}
