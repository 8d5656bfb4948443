package opensearch

import (
	"bytes"
	"testing"
)

// TestNoErrors checks the shortcut that skips parsing a bulk response:
// only a response that plainly says "errors":false is taken without
// reading its items.
func TestNoErrors(t *testing.T) {
	for _, c := range []struct {
		resp string
		want bool
	}{
		{`{"took":30,"errors":false,"items":[{"index":{"status":201}}]}`, true},
		{`{"took":30,"errors":false}`, true},
		{`{"took":30,"errors":true,"items":[{"index":{"status":429}}]}`, false},
		{`{"took":30,"errors":falsey}`, false},
		{`{"errors":false,"took":30}`, true}, // errors first: plain all the same
		{`{"took": 30, "errors": false}`, false},
		{`{"took":30,"items":[],"errors":false}`, false},
		{``, false},
		// Answers filtered by bulkFilter start with errors.
		{`{"errors":false,"items":[{"index":{"status":201}}]}`, true},
		{`{"errors":false}`, true},
		{`{"errors":true,"items":[{"index":{"status":429}}]}`, false},
		{`{"errors":falsey}`, false},
		{`{"errors":false`, false},
	} {
		if got := noErrors([]byte(c.resp)); got != c.want {
			t.Errorf("noErrors(%s) = %v, want %v", c.resp, got, c.want)
		}
	}
}

// TestWriteJSONString checks the unescaped shortcut against json.Marshal's
// quoting for plain and special strings.
func TestWriteJSONString(t *testing.T) {
	for _, s := range []string{"", "abc-123_X.y", `a"b`, `a\b`, "tab\t", "é", "<&>", "\x7f"} {
		var w bytes.Buffer
		writeJSONString(&w, s)
		var want bytes.Buffer
		writeMarshal(&want, s)
		if w.String() != want.String() {
			t.Errorf("writeJSONString(%q) = %s, want %s", s, w.String(), want.String())
		}
	}
}
