package cli

import (
	"bytes"
	"testing"
	"time"

	"sluice/internal/engine"
)

func TestProgressLine(t *testing.T) {
	got := progressLine(engine.Progress{FilesDone: 1, FilesTotal: 2, BytesDone: 1536, BytesTotal: 3 << 20, RowsRead: 1234567}, 10)
	want := "[----------]   0%  1/2 files  1.5 KiB/3.0 MiB  1,234,567 rows"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	got = progressLine(engine.Progress{FilesDone: 3, FilesTotal: 4}, 4)
	if want := "[###-]  75%  3/4 files  0 B/0 B  0 rows"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestProgressBarThrottlesAndClears(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	p := newProgressBar(&buf)
	p.now = func() time.Time { return now }
	p.Update(engine.Progress{FilesTotal: 1})
	if buf.Len() != 0 {
		t.Fatal("drew before the delay")
	}
	now = now.Add(p.delay)
	p.Update(engine.Progress{FilesTotal: 1})
	n := buf.Len()
	if n == 0 {
		t.Fatal("did not draw after the delay")
	}
	p.Update(engine.Progress{FilesDone: 1, FilesTotal: 1}) // same instant: skipped
	if buf.Len() != n {
		t.Fatal("redrew within the interval")
	}
	now = now.Add(time.Second)
	p.Update(engine.Progress{FilesDone: 1, FilesTotal: 1})
	if buf.Len() == n {
		t.Fatal("did not redraw after the interval")
	}
	buf.Reset()
	p.Clear()
	if buf.String() != "\r\x1b[K" {
		t.Fatalf("clear wrote %q", buf.String())
	}
	buf.Reset()
	p.Clear()
	if buf.Len() != 0 {
		t.Fatal("cleared twice")
	}
}

func TestProgressBarPrintln(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	p := newProgressBar(&buf)
	p.now = func() time.Time { return now }
	p.Update(engine.Progress{FilesTotal: 1})
	now = now.Add(time.Second)
	p.Update(engine.Progress{FilesTotal: 1})
	buf.Reset()
	p.Println("[feed] epoch 1: 3 files")
	if got := buf.String(); got != "\r\x1b[K[feed] epoch 1: 3 files\n" {
		t.Fatalf("got %q", got)
	}
	buf.Reset()
	p.Clear()
	if buf.Len() != 0 {
		t.Fatalf("cleared a bar that was not shown: %q", buf.String())
	}
}
