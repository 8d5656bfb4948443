package server

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

func TestWantsHTML(t *testing.T) {
	for _, c := range []struct {
		accept []string
		want   bool
	}{
		{nil, false}, // the OpenSearch SQL CLI (opensearch-py) sends none
		{[]string{"*/*"}, false},
		{[]string{"application/json"}, false},
		{[]string{"application/json, text/html"}, false},
		{[]string{"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"}, true},
		{[]string{"text/html;q=0.5, application/json;q=0.9"}, false},
		{[]string{"text/*"}, true},
		{[]string{"TEXT/HTML"}, true},
		{[]string{"application/vnd.elasticsearch+json;compatible-with=7"}, false},
	} {
		r, _ := http.NewRequest("GET", "/", nil)
		for _, a := range c.accept {
			r.Header.Add("Accept", a)
		}
		if got := wantsHTML(r); got != c.want {
			t.Errorf("Accept %q: wantsHTML %v, want %v", c.accept, got, c.want)
		}
	}
}

func get(t *testing.T, url, user, pw string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if user != "" {
		req.SetBasicAuth(user, pw)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestConsoleRoutes: GET / stays JSON for API clients and sends browsers
// to the console; the console's files are embedded, behind the same
// authentication, with a CSP; whoami tells the role; a cross-site POST
// from a browser is refused, and so is a same-origin one without the
// console's token.
func TestConsoleRoutes(t *testing.T) {
	f := newAuthFixture(t, nil)
	resp, body := get(t, f.url+"/", "bob", "bob-pw", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, `"number": "`+compatVersion+`"`) {
		t.Fatalf("GET / without Accept: %d %s", resp.StatusCode, body)
	}
	resp, _ = get(t, f.url+"/", "bob", "bob-pw", map[string]string{"Accept": "text/html,*/*;q=0.8"})
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != ConsolePath {
		t.Fatalf("GET / from a browser: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := get(t, f.url+"/console", "bob", "bob-pw", nil); resp.StatusCode/100 != 3 || resp.Header.Get("Location") != ConsolePath {
		t.Fatalf("GET /console: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	// The console's files are served without credentials (its sign-in
	// page); the page then carries no anti-CSRF token, and every API
	// call needs credentials.
	if resp, body := get(t, f.url+ConsolePath, "", "", nil); resp.StatusCode != 200 || !strings.Contains(body, `id="login-form"`) ||
		!strings.Contains(body, `<meta name="sluice-csrf" content="">`) || resp.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("console without credentials: %d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, f.url+ConsolePath+"console.js", "", "", nil); resp.StatusCode != 200 || len(body) < 100 {
		t.Fatalf("console.js without credentials: %d", resp.StatusCode)
	}
	if resp, _ := get(t, f.url+"/", "", "", map[string]string{"Accept": "text/html"}); resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != ConsolePath {
		t.Fatalf("GET / from a browser without credentials: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, p := range []string{"/", APIWhoamiPath, APIStreamsPath, APIStreamsPath + "/x/history", APITablesPath} {
		if resp, _ := get(t, f.url+p, "", "", nil); resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s without credentials: %d, challenge %q", p, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
		// The console's own requests get no challenge: no browser dialog.
		if resp, _ := get(t, f.url+p, "", "", map[string]string{consoleHeader: "1"}); resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != "" {
			t.Errorf("%s from the console without credentials: %d, challenge %q", p, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}
	if resp, _ := get(t, f.url+ConsolePath, "bob", "wrong", nil); resp.StatusCode != 401 {
		t.Fatalf("console with a wrong password: %d", resp.StatusCode)
	}
	resp, body = get(t, f.url+ConsolePath, "bob", "bob-pw", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, `<script src="console.js"`) || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Fatalf("console: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	for _, p := range []string{"console.js", "console.css", "vendor/uplot/uPlot.iife.min.js", "vendor/uplot/uPlot.min.css", "vendor/uplot/LICENSE"} {
		if resp, body := get(t, f.url+ConsolePath+p, "bob", "bob-pw", nil); resp.StatusCode != 200 || len(body) < 100 {
			t.Errorf("%s: %d, %d bytes", p, resp.StatusCode, len(body))
		}
	}
	// No CDN: every script and style the page loads is its own.
	for _, bad := range []string{"http://", "https://", "//cdn"} {
		if strings.Contains(body, bad) {
			t.Errorf("index.html loads from outside: %q", bad)
		}
	}
	var who struct {
		User, Role, CSRF string
		Authentication   bool
	}
	_, body = get(t, f.url+APIWhoamiPath, "bob", "bob-pw", nil)
	if err := json.Unmarshal([]byte(body), &who); err != nil || who.User != "bob" || who.Role != "read" || !who.Authentication ||
		who.CSRF != f.srv.csrfToken(principal{name: "bob"}) {
		t.Fatalf("whoami: %s %v", body, err)
	}
	// A bearer token signs in as its token.
	_, body = get(t, f.url+APIWhoamiPath, "", "", map[string]string{"Authorization": "Bearer " + f.readTok})
	if err := json.Unmarshal([]byte(body), &who); err != nil || who.User != "token:reader" || who.Role != "read" {
		t.Fatalf("whoami with a token: %s %v", body, err)
	}

	// A page of another site cannot make a signed-in browser stop a stream.
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE t2 (id BIGINT) USING json LOCATION '"+filepath.Join(f.dir, "t2")+"/'")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "INSERT STREAM INTO t2 SELECT id FROM t WITH (name = 'feed')")
	for _, c := range []struct {
		header map[string]string
		status int
	}{
		{map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{map[string]string{"Sec-Fetch-Site": "same-origin"}, http.StatusForbidden}, // no anti-CSRF token (csrf_test.go)
		{nil, http.StatusOK}, // not a browser
	} {
		req, _ := http.NewRequest("POST", f.url+APIStreamsPath+"/feed/stop", nil)
		req.SetBasicAuth("alice", "alice-pw")
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("stop with %v: %d, want %d", c.header, resp.StatusCode, c.status)
		}
	}
}
