package storage

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// go test -run '^$' -bench . ./internal/storage/

func BenchmarkS3Get(b *testing.B) {
	st := newS3Bucket(b, Options{})
	data := bytes.Repeat([]byte("sluice!\n"), 4<<20) // 32 MiB
	if err := st.Put(context.Background(), "obj", bytes.NewReader(data), false); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rc, err := st.Open(context.Background(), "obj")
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, rc)
		rc.Close()
	}
}

func BenchmarkS3PutMultipart(b *testing.B) {
	st := newS3Bucket(b, Options{PartSize: benchPartSize})
	data := bytes.Repeat([]byte("sluice!\n"), 4<<20) // 32 MiB, 4 parts
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := st.Put(context.Background(), "obj", bytes.NewReader(data), false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLocalList10k(b *testing.B) {
	st, _ := NewLocalStore(b.TempDir())
	for i := 0; i < 10000; i++ {
		put(b, st, fmt.Sprintf("d%02d/f%05d.json", i%50, i), "")
	}
	for b.Loop() {
		n := 0
		st.List(context.Background(), "", "", func(ObjectInfo) error { n++; return nil })
		if n != 10000 {
			b.Fatal(n)
		}
	}
}

func BenchmarkMemList10k(b *testing.B) {
	st := NewMemStore("bench")
	for i := 0; i < 10000; i++ {
		st.Put(context.Background(), fmt.Sprintf("d%02d/f%05d.json", i%50, i), strings.NewReader(""), false)
	}
	for b.Loop() {
		st.List(context.Background(), "", "", func(ObjectInfo) error { return nil })
	}
}

var benchPartSize int64 = 8 << 20
