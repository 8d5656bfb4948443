package storage

import (
	"context"
	"fmt"
	"testing"
)

func TestMemStoreContract(t *testing.T) {
	testStoreContract(t, NewMemStore("contract"))
}

func TestMemStoreManyPages(t *testing.T) {
	st := NewMemStore("pages")
	const n = 2500
	for i := 0; i < n; i++ {
		put(t, st, fmt.Sprintf("k/%05d", i), "")
	}
	got := listKeys(t, st, "k/", "k/00999")
	if len(got) != n-1000 || got[0] != "k/01000" || got[len(got)-1] != "k/02499" {
		t.Fatalf("got %d keys from %v to %v", len(got), got[0], got[len(got)-1])
	}
	info, _ := st.Stat(context.Background(), "k/00000")
	if info.ETag != "d41d8cd98f00b204e9800998ecf8427e" {
		t.Fatalf("ETag of empty object = %q, want md5", info.ETag)
	}
}
