package format

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Mode says what a decoder does with a row it cannot read.
type Mode string

// The three Spark-compatible parse modes.
const (
	// Permissive keeps the row: unreadable fields become NULL and, when the
	// schema declares the corrupt column, the raw line is stored there.
	Permissive Mode = "PERMISSIVE"
	// DropMalformed leaves the whole row out.
	DropMalformed Mode = "DROPMALFORMED"
	// FailFast stops reading with an error "file:line: reason".
	FailFast Mode = "FAILFAST"
)

// Defaults used when an option is not given.
const (
	DefaultBatchSize     = 8192
	DefaultCorruptColumn = "_corrupt_record"
	// DefaultMaxLineBytes bounds one JSON/CSV record; longer ones are bad rows.
	DefaultMaxLineBytes = 100 << 20
)

// Metadata column names a decoder fills itself when the projected schema
// asks for them.
const (
	FileColumn = "_file"
	RowColumn  = "_row"
)

// BadRow describes one row a decoder could not fully read.
type BadRow struct {
	File   string
	Line   int64 // 1-based line (JSON/CSV) where the record starts
	Reason string
	Raw    string // the record's text, cut to MaxBadRowRaw bytes
}

// MaxBadRowRaw caps BadRow.Raw so a 100 MB bad line is not copied around.
const MaxBadRowRaw = 4096

// Options configure a Reader or Writer. The zero value is usable: every
// empty field takes its default (see ParseOptions).
type Options struct {
	// Format is "json", "csv" or "parquet".
	Format string
	// ColumnOrder is the table's data columns in declared order: a CSV
	// file without a header binds its fields to them by position.
	ColumnOrder []string
	// RelativeRows lets _row number a Part's lines from 1 rather than by
	// the file's lines, for a caller that only needs row counts: the part
	// then need not count the lines before it.
	RelativeRows bool
	// Compression is "auto" (from the file extension, then magic bytes),
	// "none", "gzip", "zstd", "snappy" or "bzip2". For Parquet it is the
	// column codec the writer uses ("snappy" default, "zstd", "gzip", "none").
	Compression string
	// Mode is what to do with bad rows; PERMISSIVE when empty.
	Mode Mode
	// CorruptColumn receives the raw text of a bad row in PERMISSIVE mode,
	// but only when the projected schema has a STRING column of that name.
	CorruptColumn string
	// BatchSize is the number of rows per record batch.
	BatchSize int
	// MaxLineBytes bounds one record (default 100 MB).
	MaxLineBytes int

	// CSV only.
	Header    bool
	Delimiter rune
	Quote     rune // 0 with QuoteSet: quoting disabled
	Escape    rune
	NullValue string
	// MultiLine (Spark's multiLine), in JSON: each file is one or more
	// JSON values (objects, or arrays of objects) that may span lines,
	// rather than one record per line. In CSV it lets a quoted field span
	// lines. Off,
	// a quoted field ends with its line: an unterminated quote makes that
	// one line a bad row and the next line is read afresh. On, a record
	// is capped at MaxLineBytes; a record that hits the cap or the end of
	// the file with its quote open is a bad row of its first line, and
	// reading resumes at the line after it.
	MultiLine bool
	// QuoteSet/EscapeSet record that Quote/Escape were given explicitly
	// (so "no quote character" can be expressed as an empty option).
	QuoteSet, EscapeSet bool

	// Encoding is the text's charset, normalized ("" is UTF-8): the
	// stream is decoded to UTF-8 after decompression.
	Encoding string
	// LineSep is the record separator when it is not a newline (0: \n,
	// with \r\n taken too).
	LineSep byte

	// TimestampFormat is an optional layout for TIMESTAMP strings, written
	// Go style ("2006-01-02 15:04:05") or Java style ("yyyy-MM-dd HH:mm:ss").
	// When empty, ISO-8601 is accepted (types.ParseTimestamp).
	TimestampFormat string

	// OnBadRow, when set, is called for each bad row in PERMISSIVE and
	// DROPMALFORMED modes. It runs on the reading goroutine.
	OnBadRow func(BadRow)
	// RowGroupFilter, when set, is asked about each Parquet row group;
	// returning false skips the group unread.
	RowGroupFilter func(stats RowGroupStats) bool
}

// withDefaults fills the empty fields.
func (o Options) withDefaults() Options {
	if o.Compression == "" {
		o.Compression = "auto"
	}
	if o.Mode == "" {
		o.Mode = Permissive
	}
	if o.CorruptColumn == "" {
		o.CorruptColumn = DefaultCorruptColumn
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.Delimiter == 0 {
		o.Delimiter = ','
	}
	if o.Quote == 0 && !o.QuoteSet {
		o.Quote = '"'
	}
	if o.Escape == 0 && !o.EscapeSet {
		o.Escape = '\\'
	}
	return o
}

var commonKeys = []string{"batch_size", "compression", "corrupt_column", "encoding", "line_sep", "max_line_bytes", "mode", "multiline", "timestamp_format"}
var csvKeys = []string{"delimiter", "escape", "header", "null_value", "quote"}

// OptionKeys lists the option keys ParseOptions accepts for a format,
// sorted. An unknown format has no keys.
func OptionKeys(format string) []string {
	var keys []string
	switch normalizeFormat(format) {
	case "json":
		keys = append(keys, commonKeys...)
	case "csv":
		keys = append(append(keys, commonKeys...), csvKeys...)
	case "parquet":
		keys = []string{"batch_size", "compression"}
	default:
		return nil
	}
	sort.Strings(keys)
	return keys
}

// ParseOptions reads table OPTIONS (keys case-insensitive) for a format.
// Unknown keys and bad values are errors that name what is accepted.
//
//	opts, err := format.ParseOptions("csv", map[string]string{"header": "true", "delimiter": "|"})
func ParseOptions(format string, m map[string]string) (Options, error) {
	format = normalizeFormat(format)
	keys := OptionKeys(format)
	if keys == nil {
		return Options{}, fmt.Errorf("unknown format %q (known: csv, json, parquet)", format)
	}
	o := Options{Format: format}
	known := make(map[string]bool, len(keys))
	for _, k := range keys {
		known[k] = true
	}
	// Sorted so the first error reported is deterministic.
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := m[k]
		key := strings.ToLower(strings.TrimSpace(k))
		if !known[key] {
			return Options{}, fmt.Errorf("unknown %s option %q (known: %s)", format, k, strings.Join(keys, ", "))
		}
		if err := o.set(key, v); err != nil {
			return Options{}, fmt.Errorf("%s option %s: %w", format, key, err)
		}
	}
	return o.withDefaults(), nil
}

func (o *Options) set(key, v string) error {
	switch key {
	case "compression":
		c, err := normalizeCodec(v, o.Format == "parquet")
		if err != nil {
			return err
		}
		o.Compression = c
	case "mode":
		switch Mode(strings.ToUpper(strings.TrimSpace(v))) {
		case Permissive:
			o.Mode = Permissive
		case DropMalformed:
			o.Mode = DropMalformed
		case FailFast:
			o.Mode = FailFast
		default:
			return fmt.Errorf("%q is not a mode (known: PERMISSIVE, DROPMALFORMED, FAILFAST)", v)
		}
	case "corrupt_column":
		o.CorruptColumn = strings.TrimSpace(v)
	case "batch_size", "max_line_bytes":
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not a positive integer", v)
		}
		if key == "batch_size" {
			o.BatchSize = n
		} else {
			o.MaxLineBytes = n
		}
	case "timestamp_format":
		o.TimestampFormat = v
	case "encoding":
		c, err := checkCharset(v)
		if err != nil {
			return err
		}
		o.Encoding = c
	case "line_sep":
		sep, err := lineSep(v)
		if err != nil {
			return err
		}
		o.LineSep = sep
	case "header", "multiline":
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("%q is not a boolean (true or false)", v)
		}
		if key == "header" {
			o.Header = b
		} else {
			o.MultiLine = b
		}
	case "delimiter":
		r, err := oneChar(v, false)
		if err != nil {
			return err
		}
		o.Delimiter = r
	case "quote":
		r, err := oneChar(v, true)
		if err != nil {
			return err
		}
		o.Quote, o.QuoteSet = r, true
	case "escape":
		r, err := oneChar(v, true)
		if err != nil {
			return err
		}
		o.Escape, o.EscapeSet = r, true
	case "null_value":
		o.NullValue = v
	}
	return nil
}

// oneChar reads a single-character option; "\t" and "tab" spell a tab.
func oneChar(v string, emptyOK bool) (rune, error) {
	switch v {
	case `\t`, "tab", "TAB":
		return '\t', nil
	case "":
		if emptyOK {
			return 0, nil
		}
		return 0, fmt.Errorf("must be one character")
	}
	r, n := utf8.DecodeRuneInString(v)
	if n != len(v) || r == utf8.RuneError || r == '\n' || r == '\r' {
		return 0, fmt.Errorf("%q must be one character", v)
	}
	return r, nil
}
