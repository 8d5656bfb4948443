package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/sql"
)

// TestOpenRowsIsLazy: OpenRows reads its input only as fast as the rows
// are taken: with one batch taken of a 200-file table, the query has read
// a handful of files and waits; reading on yields every row exactly once,
// and Close ends a query midway.
func TestOpenRowsIsLazy(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	const files, perFile = 200, 50
	for f := 0; f < files; f++ {
		var b strings.Builder
		for i := 0; i < perFile; i++ {
			fmt.Fprintf(&b, `{"id": %d}`+"\n", f*perFile+i)
		}
		if err := os.WriteFile(filepath.Join(in, fmt.Sprintf("f%03d.json", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var filesRead atomic.Int64
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), Parallelism: 2, Progress: func(p Progress) {
		filesRead.Store(int64(p.FilesDone))
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	mustExecAll(t, eng, "CREATE TABLE t (id BIGINT) USING json LOCATION '"+in+"/'")
	open := func() *Rows {
		st, err := sql.ParseOne("SELECT id FROM t")
		if err != nil {
			t.Fatal(err)
		}
		r, ok, err := eng.OpenRows(context.Background(), st, 1)
		if err != nil || !ok {
			t.Fatalf("OpenRows: %v %v", ok, err)
		}
		return r
	}
	ctx := context.Background()

	r := open()
	b, err := r.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b.Release()
	time.Sleep(300 * time.Millisecond) // let an eager query run ahead
	if n := filesRead.Load(); n > 20 {
		t.Errorf("after one batch taken the query has read %d of %d files; it should wait for the reader", n, files)
	}
	seen := map[int64]int{}
	rows := 0
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ids := b.Column(0).(*array.Int64)
		for i := 0; i < ids.Len(); i++ {
			seen[ids.Value(i)]++
		}
		rows += int(b.NumRows())
		b.Release()
	}
	r.Close()
	// The first batch was released unread: every other row came once.
	if len(seen) != rows || rows < files*perFile-perFile*2 || rows >= files*perFile {
		t.Errorf("%d rows, %d distinct, of %d", rows, len(seen), files*perFile)
	}

	// Close midway returns, and stops the query.
	r = open()
	if b, err := r.Next(ctx); err != nil {
		t.Fatal(err)
	} else {
		b.Release()
	}
	done := make(chan struct{})
	go func() { r.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return")
	}

	// A statement that is not a SELECT is not run.
	st, _ := sql.ParseOne("DROP TABLE t")
	if _, ok, err := eng.OpenRows(ctx, st, 1); ok || err != nil {
		t.Fatalf("DROP TABLE through OpenRows: ok %v err %v", ok, err)
	}
	if got := queryRows(t, eng, "SELECT count(*) FROM t"); len(got) != 1 {
		t.Fatalf("table gone: %v", got)
	}
}
