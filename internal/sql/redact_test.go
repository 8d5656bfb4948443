package sql

import (
	"errors"
	"strings"
	"testing"
)

func TestRedactText(t *testing.T) {
	cases := map[string]string{
		"http://user:PW@host:9200/x":          "http://user:***@host:9200/x",
		"https://TOKEN@github.com/a":          "https://***@github.com/a",
		"a http://u:p@h, b s3://k:s@bucket/p": "a http://u:***@h, b s3://k:***@bucket/p",
		"http://host/path?x=a@b":              "http://host/path?x=a@b",
		"mail me at a@b.c":                    "mail me at a@b.c",
		"'http://u:p@h'":                      "'http://u:***@h'",
	}
	for in, want := range cases {
		if got := RedactText(in); got != want {
			t.Errorf("RedactText(%q) = %q, want %q", in, got, want)
		}
	}
	if RedactValue("password", "x") != "***" || RedactValue("endpoint", "http://a:b@h") != "http://a:***@h" {
		t.Error("RedactValue")
	}
}

func TestOptionStringRedactsURLUserInfo(t *testing.T) {
	stmts, err := Parse("CREATE TABLE t (a INT) USING opensearch OPTIONS (endpoint 'http://admin:PW@h:9200', index 'i', password 'P2')")
	if err != nil {
		t.Fatal(err)
	}
	s := stmts[0].String()
	if strings.Contains(s, "PW") || strings.Contains(s, "P2") || !strings.Contains(s, "endpoint = 'http://admin:***@h:9200'") {
		t.Fatalf("String() = %s", s)
	}
	// The statement itself keeps the real value.
	if !strings.Contains(stmts[0].(*CreateTable).Options[0].Value.Value, "PW") {
		t.Fatal("String() changed the statement")
	}
}

func TestRedactErrorKeepsTheChain(t *testing.T) {
	base := errors.New("boom")
	err := RedactError(&wrapped{msg: "connecting to http://u:SECRET@h: boom", err: base})
	if strings.Contains(err.Error(), "SECRET") || !errors.Is(err, base) {
		t.Fatalf("RedactError = %v", err)
	}
	if RedactError(base) != base {
		t.Fatal("an error with nothing to hide is returned as is")
	}
}

type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }
