package storage

import (
	"context"
	"errors"
	"io"
	"testing"
)

func TestReaderAt(t *testing.T) {
	st := NewMemStore("ra")
	put(t, st, "f", "0123456789")
	ra := ReaderAt(context.Background(), st, "f", 10)
	cases := []struct {
		off     int64
		n       int
		want    string
		wantErr error
	}{
		{0, 4, "0123", nil},
		{6, 4, "6789", nil},
		{8, 4, "89", io.EOF},
		{10, 1, "", io.EOF},
		{3, 0, "", nil},
	}
	for _, c := range cases {
		p := make([]byte, c.n)
		n, err := ra.ReadAt(p, c.off)
		if string(p[:n]) != c.want || !errors.Is(err, c.wantErr) && err != c.wantErr {
			t.Errorf("ReadAt(%d, %d) = %q, %v; want %q, %v", c.off, c.n, p[:n], err, c.want, c.wantErr)
		}
	}
	if _, err := ra.Seek(-3, io.SeekEnd); err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(ra); string(b) != "789" {
		t.Fatalf("Read after Seek = %q", b)
	}
	// A size larger than the object means it changed: an error, not EOF.
	short := ReaderAt(context.Background(), st, "f", 20)
	if _, err := short.ReadAt(make([]byte, 15), 0); !errors.Is(err, ErrChanged) {
		t.Fatalf("short object: %v", err)
	}
	if _, err := ReaderAt(context.Background(), st, "nope", 5).ReadAt(make([]byte, 1), 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
}
