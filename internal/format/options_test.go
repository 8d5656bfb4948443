package format

import (
	"strings"
	"testing"
)

func TestParseOptions(t *testing.T) {
	o, err := ParseOptions("CSV", map[string]string{
		"header": "true", "delimiter": `\t`, "quote": "'", "escape": "", "null_value": "NA",
		"mode": "dropmalformed", "compression": "gz", "batch_size": "100", "timestamp_format": "yyyy-MM-dd",
		"Corrupt_Column": "bad",
	})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Header || o.Delimiter != '\t' || o.Quote != '\'' || o.Escape != 0 || !o.EscapeSet || o.NullValue != "NA" ||
		o.Mode != DropMalformed || o.Compression != CodecGzip || o.BatchSize != 100 || o.CorruptColumn != "bad" || o.Format != "csv" {
		t.Fatalf("%+v", o)
	}
	o, err = ParseOptions("json", nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.Mode != Permissive || o.BatchSize != DefaultBatchSize || o.CorruptColumn != DefaultCorruptColumn || o.Compression != CodecAuto {
		t.Fatalf("defaults %+v", o)
	}

	bad := []struct {
		format string
		m      map[string]string
		want   string
	}{
		{"json", map[string]string{"header": "true"}, `unknown json option "header" (known: batch_size, compression, corrupt_column, encoding, line_sep, max_line_bytes, mode, multiline, timestamp_format)`},
		{"json", map[string]string{"encoding": "ebcdic"}, `not a known encoding`},
		{"csv", map[string]string{"line_sep": "ab"}, `one byte`},
		{"json", map[string]string{"mode": "lenient"}, "not a mode"},
		{"json", map[string]string{"compression": "lzo"}, "unknown compression"},
		{"parquet", map[string]string{"compression": "bzip2"}, "unknown compression"},
		{"csv", map[string]string{"delimiter": "ab"}, "one character"},
		{"csv", map[string]string{"header": "yes please"}, "not a boolean"},
		{"csv", map[string]string{"batch_size": "-1"}, "positive integer"},
		{"avro", nil, "unknown format"},
	}
	for _, c := range bad {
		_, err := ParseOptions(c.format, c.m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: err %v, want %q", c.format, c.m, err, c.want)
		}
	}
}

func TestOptionKeys(t *testing.T) {
	if got := strings.Join(OptionKeys("csv"), ","); got != "batch_size,compression,corrupt_column,delimiter,encoding,escape,header,line_sep,max_line_bytes,mode,multiline,null_value,quote,timestamp_format" {
		t.Fatal(got)
	}
	if OptionKeys("xml") != nil {
		t.Fatal("unknown format has keys")
	}
}

func TestGoLayout(t *testing.T) {
	for java, want := range map[string]string{
		"yyyy-MM-dd HH:mm:ss":          "2006-01-02 15:04:05",
		"yyyy-MM-dd'T'HH:mm:ss.SSSXXX": "2006-01-02T15:04:05.000Z07:00",
		"dd/MMM/yyyy:HH:mm:ss Z":       "02/Jan/2006:15:04:05 -0700",
		"2006-01-02":                   "2006-01-02",
	} {
		if got := goLayout(java); got != want {
			t.Errorf("%s: got %s want %s", java, got, want)
		}
	}
}
