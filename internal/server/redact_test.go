package server

import (
	"strings"
	"testing"
)

func TestRedactSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"OPTIONS (secret_access_key 'abc''d', region 'x')":             "OPTIONS (secret_access_key '***', region 'x')",
		"OPTIONS (secret_access_key 'abc\\'d', region 'x')":            "OPTIONS (secret_access_key '***', region 'x')",
		"option password = 'hunter2' is bad":                           "option password = '***' is bad",
		`{"s3.session_token": "tok\"en"}`:                              `{"s3.session_token": "***"}`,
		"GET https://alice:hunter2@host:9200/x failed":                 "GET https://alice:***@host:9200/x failed",
		"auth_token=abc123, next":                                      "auth_token=***, next",
		`Get "http://127.0.0.1:1/user%3Ahunter2%40bucket?list-type=2"`: `Get "http://127.0.0.1:1/user%3A***%40bucket?list-type=2"`,
		"table t created":                                              "table t created",
		"column \"passwords\" not found":                               "column \"passwords\" not found",
	} {
		got := redactSecrets(in)
		if got != want {
			t.Errorf("redactSecrets(%q) = %q, want %q", in, got, want)
		}
		for _, s := range []string{"hunter2", "abc", "tok"} {
			if strings.Contains(in, s) && strings.Contains(got, s+"'") {
				t.Errorf("%q still shows %s", got, s)
			}
		}
	}
}
