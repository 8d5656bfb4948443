package storage

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A link back up the tree (a/b -> ..) used to make List yield the same
// file once per level until the OS refused the path (41 times). Linked
// files and linked directories that are not cycles are still followed.
func TestLocalListStopsAtSymlinkCycles(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	for _, d := range []string{filepath.Join(data, "a"), filepath.Join(root, "elsewhere"), filepath.Join(root, "other")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(filepath.Join(data, "x.json"), "{}\n")
	mustWrite(filepath.Join(data, "a", "in_a.json"), "{}\n")
	mustWrite(filepath.Join(root, "elsewhere", "real.json"), "{}\n")
	mustWrite(filepath.Join(root, "other", "y.json"), "{}\n")
	for link, target := range map[string]string{
		filepath.Join(data, "a", "b"):      "..",                                          // the cycle
		filepath.Join(data, "link.json"):   filepath.Join("..", "elsewhere", "real.json"), // a linked file
		filepath.Join(data, "lnk"):         filepath.Join("..", "other"),                  // a linked directory
		filepath.Join(root, "other", "up"): filepath.Join("..", "data"),                   // a longer cycle through lnk
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	st, err := NewLocalStore(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/in_a.json", "link.json", "lnk/y.json", "x.json"}
	if got := listKeys(t, st, "", ""); !reflect.DeepEqual(got, want) {
		t.Fatalf("List = %q, want %q", got, want)
	}
	// Under a prefix the walk stops at the same links.
	if got := listKeys(t, st, "a/", ""); !reflect.DeepEqual(got, []string{"a/in_a.json"}) {
		t.Fatalf("List(a/) = %q", got)
	}
	if got := listKeys(t, st, "a/b/", ""); len(got) != 0 {
		t.Fatalf("List(a/b/) = %q", got)
	}
}
