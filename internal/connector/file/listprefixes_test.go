package file

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"sluice/internal/storage"
)

// failingLister fails listings of one prefix.
type failingLister struct {
	storage.Store
	bad string
}

var errListBoom = errors.New("boom")

func (f failingLister) List(ctx context.Context, prefix, startAfter string, fn func(storage.ObjectInfo) error) error {
	if prefix == f.bad {
		return errListBoom
	}
	return f.Store.List(ctx, prefix, startAfter, fn)
}

func TestListPrefixes(t *testing.T) {
	ctx := context.Background()
	mem := storage.NewMemStore("listprefixes")
	for d := 1; d <= 20; d++ {
		for i := 0; i < 3; i++ {
			mem.Put(ctx, fmt.Sprintf("t/day=%d/p%d.json", d, i), bytes.NewReader([]byte("{}")), false)
		}
		mem.Put(ctx, fmt.Sprintf("t/day=%d/_SUCCESS", d), bytes.NewReader(nil), false)
	}
	var prefixes []string
	for d := 1; d <= 20; d += 2 {
		prefixes = append(prefixes, fmt.Sprintf("t/day=%d/", d))
	}
	opts := defaultSourceOptions()
	l, err := newLocation(mem, "mem://listprefixes/t/", "t/")
	if err != nil {
		t.Fatal(err)
	}
	files, err := l.list(ctx, &opts, prefixes)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 30 || !sort.SliceIsSorted(files, func(i, j int) bool { return files[i].Key < files[j].Key }) {
		t.Fatalf("%d files (want 30, sorted)", len(files))
	}
	for _, f := range files {
		if strings.Contains(f.Key, "_SUCCESS") || !strings.HasPrefix(f.Key, "t/day=") {
			t.Errorf("listed %s", f.Key)
		}
	}
	l.store = failingLister{Store: mem, bad: "t/day=7/"}
	if _, err := l.list(ctx, &opts, prefixes); !errors.Is(err, errListBoom) || !strings.Contains(err.Error(), "mem://listprefixes/t/") {
		t.Errorf("a failing prefix: %v", err)
	}
}
