package storage_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"sluice/internal/storage"
)

// Resolve a location, write through the store, and list it back in key
// order; hidden keys such as _SUCCESS markers are skipped.
func Example() {
	ctx := context.Background()
	st, prefix, err := storage.Resolve(ctx, "mem://example/logs/", storage.Options{})
	if err != nil {
		panic(err)
	}
	for _, k := range []string{"b.json", "a.json", "_SUCCESS"} {
		if err := st.Put(ctx, prefix+k, strings.NewReader("{}\n"), false); err != nil {
			panic(err)
		}
	}
	// Exclusive create: the second writer of a checkpoint loses.
	err = st.Put(ctx, prefix+"a.json", strings.NewReader("{}\n"), true)
	fmt.Println(err)

	_ = st.List(ctx, prefix, "", func(o storage.ObjectInfo) error {
		fmt.Println(o.Key, o.Size)
		return nil
	})
	rc, _ := st.OpenRange(ctx, prefix+"a.json", 0, 2)
	b, _ := io.ReadAll(rc)
	rc.Close()
	fmt.Printf("%s\n", b)
	// Output:
	// writing mem://example/logs/a.json: object already exists
	// logs/a.json 3
	// logs/b.json 3
	// {}
}
