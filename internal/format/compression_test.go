package format

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/snappy"

	"sluice/internal/types"
)

func compressBytes(t *testing.T, codec string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := Compress(&buf, codec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestCodecFromName(t *testing.T) {
	for name, want := range map[string]string{
		"a.json.gz": CodecGzip, "s3://b/a.JSON.GZ": CodecGzip, "a.zst": CodecZstd, "a.zstd": CodecZstd,
		"a.snappy": CodecSnappy, "a.sz": CodecSnappy, "a.bz2": CodecBzip2, "a.json": CodecNone,
		"file:///x/a.csv.gz?v=1": CodecGzip,
	} {
		if got := CodecFromName(name); got != want {
			t.Errorf("%s: got %s want %s", name, got, want)
		}
	}
}

func TestDecompress(t *testing.T) {
	plain := []byte(strings.Repeat(`{"a":1}`+"\n", 1000))
	bz, err := os.ReadFile("testdata/lines.json.bz2")
	if err != nil {
		t.Fatal(err)
	}
	rawSnappy := snappy.Encode(nil, plain)
	multi := append(compressBytes(t, CodecGzip, plain[:4000]), compressBytes(t, CodecGzip, plain[4000:])...)
	cases := []struct {
		name, codec string
		data        []byte
		want        []byte
	}{
		{"a.json.gz", "auto", compressBytes(t, CodecGzip, plain), plain},
		{"a.json", "gzip", compressBytes(t, CodecGzip, plain), plain},
		{"a.json.gz", "auto", multi, plain}, // multi-member gzip
		{"a.json.zst", "auto", compressBytes(t, CodecZstd, plain), plain},
		{"a.json.snappy", "auto", compressBytes(t, CodecSnappy, plain), plain},
		{"a.json.snappy", "auto", rawSnappy, plain},
		{"a.json.bz2", "auto", bz, []byte(`{"a":1}` + "\n" + `{"a":2}` + "\n")},
		{"a.json", "auto", bz, []byte(`{"a":1}` + "\n" + `{"a":2}` + "\n")}, // sniffed
		{"a.json", "auto", plain, plain},
		{"a.json.gz", "none", plain, plain},
		{"empty.json.gz", "auto", nil, nil},
	}
	for _, c := range cases {
		rc, err := Decompress(io.NopCloser(bytes.NewReader(c.data)), c.name, c.codec)
		if err != nil {
			t.Fatalf("%s/%s: %v", c.name, c.codec, err)
		}
		got, err := io.ReadAll(rc)
		if err != nil {
			t.Fatalf("%s/%s: %v", c.name, c.codec, err)
		}
		if !bytes.Equal(got, c.want) {
			t.Fatalf("%s/%s: got %d bytes want %d", c.name, c.codec, len(got), len(c.want))
		}
		rc.Close()
		rc.Close()
	}
}

func TestTruncatedGzipNamesFile(t *testing.T) {
	gz := compressBytes(t, CodecGzip, []byte(strings.Repeat(`{"a":"hello world"}`+"\n", 5000)))
	f := memFile("file:///x.json.gz", gz[:len(gz)/2])
	_, err := readAll(t, f, schemaOf(fld("a", types.String)), Options{Format: "json"})
	if err == nil || err.Error() != "reading file:///x.json.gz: unexpected EOF in gzip stream" {
		t.Fatalf("err = %v", err)
	}
	zs := compressBytes(t, CodecZstd, []byte(strings.Repeat(`{"a":"hello world"}`+"\n", 5000)))
	_, err = readAll(t, memFile("file:///x.json.zst", zs[:len(zs)/2]), schemaOf(fld("a", types.String)), Options{Format: "json"})
	if err == nil || !strings.HasPrefix(err.Error(), "reading file:///x.json.zst: ") {
		t.Fatalf("err = %v", err)
	}
}

func TestUnknownCodec(t *testing.T) {
	if _, err := Decompress(io.NopCloser(bytes.NewReader(nil)), "x", "lz77"); err == nil || !strings.Contains(err.Error(), "known: auto, none, gzip") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Compress(io.Discard, "bzip2"); err == nil {
		t.Fatal("bzip2 writing should be refused")
	}
}

// A small compressed file can hold lines far longer than its read buffer.
func TestCompressedLongLines(t *testing.T) {
	long := strings.Repeat("x", 200000)
	plain := []byte(`{"a":"` + long + `"}` + "\n" + `{"a":"y"}` + "\n")
	gz := compressBytes(t, CodecGzip, plain)
	if len(gz) > 4096 {
		t.Fatalf("test wants a tiny file, got %d bytes", len(gz))
	}
	got := mustRead(t, memFile("x.json.gz", gz), schemaOf(fld("a", types.String), fld("_row", types.BigInt)), Options{})
	if len(got) != 2 || len(got[0]) != len(long)+len(`{"_row":1,"a":""}`) || got[1] != `{"_row":2,"a":"y"}` {
		t.Fatalf("got %d rows", len(got))
	}
	csvData := compressBytes(t, CodecGzip, []byte("a\n\""+long+"\n"+long+"\"\nz\n"))
	got = mustRead(t, memFile("x.csv.gz", csvData), schemaOf(fld("a", types.String), fld("_row", types.BigInt)), Options{Format: "csv", Header: true, MultiLine: true})
	if len(got) != 2 || got[1] != `{"_row":4,"a":"z"}` {
		t.Fatalf("got %v", got[1:])
	}
}
