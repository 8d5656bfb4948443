package server

import (
	"net/http"
	"path/filepath"
	"regexp"
	"testing"
)

var csrfMeta = regexp.MustCompile(`<meta name="sluice-csrf" content="([^"]+)">`)

// consoleToken is the anti-CSRF token in the console page user gets.
func consoleToken(t *testing.T, url, user, pw string) string {
	t.Helper()
	resp, body := get(t, url+ConsolePath, user, pw, nil)
	m := csrfMeta.FindStringSubmatch(body)
	if resp.StatusCode != 200 || m == nil {
		t.Fatalf("console page as %q: %d, no anti-CSRF token in it", user, resp.StatusCode)
	}
	return m[1]
}

// csrfPost POSTs to path as user with the headers and checks the status.
func csrfPost(t *testing.T, url, path, user, pw string, header map[string]string, status int) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+path, nil)
	if user != "" {
		req.SetBasicAuth(user, pw)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != status {
		t.Errorf("POST %s as %q with %v: %d, want %d", path, user, header, resp.StatusCode, status)
	}
}

// TestConsoleCSRFToken: a state-changing request from a browser (it
// sends Origin, Sec-Fetch-Site or a cookie) needs the token of the
// console page its user loaded, with or without authentication; clients
// that are not browsers need none.
func TestConsoleCSRFToken(t *testing.T) {
	f := newAuthFixture(t, nil)
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE t2 (id BIGINT) USING json LOCATION '"+filepath.Join(f.dir, "t2")+"/'")
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "INSERT STREAM INTO t2 SELECT id FROM t WITH (name = 'feed')")
	tok := consoleToken(t, f.url, "alice", "alice-pw")
	bobTok := consoleToken(t, f.url, "bob", "bob-pw")
	stop := APIStreamsPath + "/feed/stop"
	same := map[string]string{"Sec-Fetch-Site": "same-origin"}
	csrfPost(t, f.url, stop, "alice", "alice-pw", same, http.StatusForbidden)
	csrfPost(t, f.url, stop, "alice", "alice-pw", map[string]string{"Origin": f.url}, http.StatusForbidden)
	csrfPost(t, f.url, stop, "alice", "alice-pw", map[string]string{"Cookie": "session=x"}, http.StatusForbidden)
	csrfPost(t, f.url, stop, "alice", "alice-pw", map[string]string{"Sec-Fetch-Site": "same-origin", csrfHeader: bobTok}, http.StatusForbidden)
	csrfPost(t, f.url, stop, "alice", "alice-pw", map[string]string{"Sec-Fetch-Site": "same-origin", csrfHeader: tok}, http.StatusOK)
	csrfPost(t, f.url, stop, "alice", "alice-pw", nil, http.StatusOK) // not a browser

	// Without authentication the anonymous admin is everyone's: the
	// token is what a forged request lacks.
	n := newFixture(t, 1)
	anon := consoleToken(t, n.http.URL, "", "")
	csrfPost(t, n.http.URL, "/_plugins/_sql", "", "", same, http.StatusForbidden)
	csrfPost(t, n.http.URL, APIStreamsPath+"/none/stop", "", "", map[string]string{"Sec-Fetch-Site": "same-origin", csrfHeader: anon}, http.StatusNotFound)
}
