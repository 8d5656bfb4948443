// Command gensample writes the data files the README, the quickstart and
// the .slt suite read: testdata/sample/http_logs (NDJSON access logs in
// Hive partitions, partly gzip-compressed) and testdata/data (a small
// table in every format and compression Sluice reads).
//
// Output is byte-for-byte deterministic (a fixed-seed generator, no
// timestamps in gzip headers); main_test.go checks the committed files
// still match. Run it from the repository root after changing it:
//
//	go run ./internal/slt/gensample
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", "testdata", "directory to write sample/ and data/ under")
	flag.Parse()
	if err := generate(*root); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// generate writes every file under root.
func generate(root string) error {
	files := map[string][]byte{}
	if err := httpLogs(files); err != nil {
		return err
	}
	if err := peopleFiles(files); err != nil {
		return err
	}
	for name, data := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}

// rng is splitmix64: tiny, and unlike math/rand its sequence is fixed
// here rather than by the Go release.
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// pick chooses from items with the given weights.
func pick[T any](r *rng, items []T, weights []int) T {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := r.intn(total)
	for i, w := range weights {
		if n < w {
			return items[i]
		}
		n -= w
	}
	return items[len(items)-1]
}
