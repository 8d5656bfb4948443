package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// listKeys collects the keys List yields.
func listKeys(t testing.TB, st Store, prefix, startAfter string) []string {
	t.Helper()
	var keys []string
	err := st.List(context.Background(), prefix, startAfter, func(o ObjectInfo) error {
		keys = append(keys, o.Key)
		return nil
	})
	if err != nil {
		t.Fatalf("List(%q, %q): %v", prefix, startAfter, err)
	}
	return keys
}

func put(t testing.TB, st Store, key, data string) {
	t.Helper()
	if err := st.Put(context.Background(), key, strings.NewReader(data), false); err != nil {
		t.Fatalf("Put(%q): %v", key, err)
	}
}

// readAll returns a function so calls can pass Open's two results
// straight through: readAll(t)(st.Open(ctx, key)).
func readAll(t testing.TB) func(io.ReadCloser, error) string {
	return func(rc io.ReadCloser, err error) string {
		t.Helper()
		return readAllOf(t, rc, err)
	}
}

func readAllOf(t testing.TB, rc io.ReadCloser, err error) string {
	t.Helper()
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return string(b)
}

// testStoreContract checks the Store semantics every implementation
// shares. st must be empty.
func testStoreContract(t *testing.T, st Store) {
	ctx := context.Background()
	keys := []string{"a-b", "a/x", "a/y/z", "a0", "b/c.json", "b/c.json.gz", "b/d/e.json"}
	for _, k := range keys {
		put(t, st, k, "data:"+k)
	}
	// Hidden entries are not listed.
	put(t, st, "b/_SUCCESS", "")
	put(t, st, "b/.hidden", "")
	put(t, st, "b/_tmp/f.json", "")

	t.Run("list order and filters", func(t *testing.T) {
		cases := []struct {
			prefix, after string
			want          []string
		}{
			{"", "", keys},
			{"a", "", []string{"a-b", "a/x", "a/y/z", "a0"}},
			{"a/", "", []string{"a/x", "a/y/z"}},
			{"a/y", "", []string{"a/y/z"}},
			{"b/c", "", []string{"b/c.json", "b/c.json.gz"}},
			{"", "a/x", []string{"a/y/z", "a0", "b/c.json", "b/c.json.gz", "b/d/e.json"}},
			{"", "a/y/z", []string{"a0", "b/c.json", "b/c.json.gz", "b/d/e.json"}},
			{"", "a/", []string{"a/x", "a/y/z", "a0", "b/c.json", "b/c.json.gz", "b/d/e.json"}},
			{"b/", "a", []string{"b/c.json", "b/c.json.gz", "b/d/e.json"}},
			{"b/", "zzz", nil},
			{"nope/", "", nil},
			{"b/_SUCCESS", "", []string{"b/_SUCCESS"}},
			{"b/_", "", []string{"b/_SUCCESS", "b/_tmp/f.json"}},
		}
		for _, c := range cases {
			got := listKeys(t, st, c.prefix, c.after)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("List(%q, after %q) = %q, want %q", c.prefix, c.after, got, c.want)
			}
		}
	})

	t.Run("list stops on fn error", func(t *testing.T) {
		stop := errors.New("stop")
		n := 0
		err := st.List(ctx, "", "", func(ObjectInfo) error { n++; return stop })
		if !errors.Is(err, stop) || n != 1 {
			t.Fatalf("List returned %v after %d calls", err, n)
		}
	})

	t.Run("stat open range", func(t *testing.T) {
		info, err := st.Stat(ctx, "a/y/z")
		if err != nil || info.Size != int64(len("data:a/y/z")) || info.ETag == "" || info.Key != "a/y/z" {
			t.Fatalf("Stat = %+v, %v", info, err)
		}
		if got := readAll(t)(st.Open(ctx, "a/y/z")); got != "data:a/y/z" {
			t.Fatalf("Open = %q", got)
		}
		for _, c := range []struct {
			off, n int64
			want   string
		}{{0, 4, "data"}, {5, -1, "a/y/z"}, {5, 100, "a/y/z"}, {9, 1, "z"}, {10, 5, ""}, {50, -1, ""}} {
			if got := readAll(t)(st.OpenRange(ctx, "a/y/z", c.off, c.n)); got != c.want {
				t.Errorf("OpenRange(%d, %d) = %q, want %q", c.off, c.n, got, c.want)
			}
		}
	})

	t.Run("not found", func(t *testing.T) {
		for _, k := range []string{"missing", "a/missing", "a", "a-b/under-a-file"} {
			if _, err := st.Stat(ctx, k); !errors.Is(err, ErrNotFound) {
				t.Errorf("Stat(%q) = %v, want ErrNotFound", k, err)
			} else if !strings.Contains(err.Error(), k) {
				t.Errorf("Stat(%q) error %q does not name the key", k, err)
			}
			if _, err := st.Open(ctx, k); !errors.Is(err, ErrNotFound) {
				t.Errorf("Open(%q) = %v, want ErrNotFound", k, err)
			}
		}
	})

	t.Run("put overwrite, ifAbsent, delete", func(t *testing.T) {
		put(t, st, "p/k", "one")
		put(t, st, "p/k", "two")
		if got := readAll(t)(st.Open(ctx, "p/k")); got != "two" {
			t.Fatalf("after overwrite: %q", got)
		}
		if err := st.Put(ctx, "p/k", strings.NewReader("three"), true); !errors.Is(err, ErrExists) {
			t.Fatalf("Put ifAbsent on existing = %v, want ErrExists", err)
		}
		if err := st.Put(ctx, "p/new", strings.NewReader("x"), true); err != nil {
			t.Fatalf("Put ifAbsent on new = %v", err)
		}
		if err := st.Delete(ctx, "p/k"); err != nil {
			t.Fatal(err)
		}
		if err := st.Delete(ctx, "p/k"); err != nil {
			t.Fatalf("second Delete = %v", err)
		}
		if _, err := st.Stat(ctx, "p/k"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Stat after Delete = %v", err)
		}
		if got := listKeys(t, st, "p/", ""); fmt.Sprint(got) != "[p/new]" {
			t.Fatalf("List after Delete = %q", got)
		}
	})

	t.Run("bad keys", func(t *testing.T) {
		for _, k := range []string{"", "/abs", "a/../b", "a//b", "./a"} {
			if err := st.Put(ctx, k, strings.NewReader("x"), false); err == nil {
				t.Errorf("Put(%q) succeeded", k)
			}
		}
	})

	t.Run("racing ifAbsent writers", func(t *testing.T) {
		const n = 8
		for round := 0; round < 5; round++ {
			key := fmt.Sprintf("race/%d", round)
			var wins atomic.Int32
			var wg sync.WaitGroup
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					err := st.Put(ctx, key, bytes.NewReader([]byte(fmt.Sprint(i))), true)
					switch {
					case err == nil:
						wins.Add(1)
					case !errors.Is(err, ErrExists):
						t.Errorf("racing Put: %v", err)
					}
				}()
			}
			wg.Wait()
			if wins.Load() != 1 {
				t.Fatalf("round %d: %d writers won, want exactly 1", round, wins.Load())
			}
		}
	})

	t.Run("fn may write during list", func(t *testing.T) {
		err := st.List(ctx, "race/", "", func(o ObjectInfo) error {
			return st.Put(ctx, "z/"+o.Key, strings.NewReader("copy"), false)
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(listKeys(t, st, "z/race/", "")); got != 5 {
			t.Fatalf("copied %d keys, want 5", got)
		}
	})
}
