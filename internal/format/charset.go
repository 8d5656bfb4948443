package format

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// charsets are the encodings a text file may be in (Spark's encoding /
// charset option), by a normalized name: lower case without '-' and '_'.
// Decoding to UTF-8 happens right after decompression, so the decoders
// only ever see UTF-8.
var charsets = map[string]encoding.Encoding{
	"utf16":       unicode.UTF16(unicode.BigEndian, unicode.UseBOM), // Java's UTF-16: BOM, else big endian
	"utf16be":     unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM),
	"utf16le":     unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM),
	"iso88591":    charmap.ISO8859_1,
	"latin1":      charmap.ISO8859_1,
	"iso885915":   charmap.ISO8859_15,
	"iso88592":    charmap.ISO8859_2,
	"windows1252": charmap.Windows1252,
	"cp1252":      charmap.Windows1252,
	"windows1251": charmap.Windows1251,
	"cp1251":      charmap.Windows1251,
	"windows1250": charmap.Windows1250,
	"koi8r":       charmap.KOI8R,
	"ibm437":      charmap.CodePage437,
	"usascii":     charmap.ISO8859_1, // ASCII is a subset; bytes above 127 are kept as Latin-1
	"ascii":       charmap.ISO8859_1,
	"shiftjis":    japanese.ShiftJIS,
	"sjis":        japanese.ShiftJIS,
	"eucjp":       japanese.EUCJP,
	"euckr":       korean.EUCKR,
	"gbk":         simplifiedchinese.GBK,
	"gb18030":     simplifiedchinese.GB18030,
	"big5":        traditionalchinese.Big5,
}

func charsetKey(name string) string {
	return strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(strings.TrimSpace(name)))
}

// checkCharset returns the normalized name of a supported charset ("" for
// UTF-8, which needs no decoding).
func checkCharset(name string) (string, error) {
	k := charsetKey(name)
	switch k {
	case "", "utf8":
		return "", nil
	case "utf32":
		return "", fmt.Errorf("%q is not supported (UTF-8, UTF-16, ISO-8859-1/2/15, windows-1250/1251/1252, KOI8-R, Shift_JIS, EUC-JP, EUC-KR, GBK, GB18030, Big5 are)", name)
	}
	if _, ok := charsets[k]; !ok {
		return "", fmt.Errorf("%q is not a known encoding (UTF-8, UTF-16, UTF-16LE, UTF-16BE, ISO-8859-1, windows-1252, Shift_JIS, GBK, ...)", name)
	}
	return k, nil
}

// decodeCharset wraps a decompressed stream so it reads as UTF-8.
func decodeCharset(rc io.ReadCloser, charset string) io.ReadCloser {
	if charset == "" {
		return rc
	}
	enc := charsets[charset]
	return &charsetReader{Reader: transform.NewReader(rc, enc.NewDecoder()), Closer: rc}
}

type charsetReader struct {
	io.Reader
	io.Closer
}

// lineSep reads a lineSep option: one byte (escapes \n, \r, \t and \0
// taken as written in SQL), or \n or \r\n, which is what is read by
// default (0).
func lineSep(v string) (byte, error) {
	switch v {
	case "\n", "\r\n", `\n`, `\r\n`, "":
		return 0, nil
	case `\r`:
		return '\r', nil
	case `\t`:
		return '\t', nil
	case `\0`, `\u0000`:
		return 0x00, fmt.Errorf("NUL is not supported as a line separator")
	}
	if len(v) != 1 {
		return 0, fmt.Errorf("%q: a line separator is one byte (or \\n, \\r\\n)", v)
	}
	return v[0], nil
}
