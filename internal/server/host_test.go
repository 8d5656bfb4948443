package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// hostGet sends GET / with Host host, as user (none: ""), and returns the
// status and body.
func hostGet(t *testing.T, url, host, user, pw string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url+"/", nil)
	req.Host = host
	if user != "" {
		req.SetBasicAuth(user, pw)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestHostCheck: without authentication the server answers only requests
// for localhost, a loopback address, its listen address or an
// --allowed-hosts name, so a page whose DNS name was rebound to 127.0.0.1
// cannot reach it through the browser (DNS rebinding).
func TestHostCheck(t *testing.T) {
	f := newFixtureWith(t, 1, func(o *Options) { o.Security.AllowedHosts = []string{"sluice.internal, ops.example:8443"} })
	for host, want := range map[string]int{
		"evil.example:9210":      http.StatusForbidden,
		"evil.example":           http.StatusForbidden,
		"127.0.0.1.evil.example": http.StatusForbidden,
		"ops.example":            http.StatusForbidden, // allowed with its port only
		"localhost:9210":         200,
		"LOCALHOST":              200,
		"127.0.0.1:9210":         200,
		"127.1.2.3":              200,
		"[::1]:9210":             200,
		"sluice.internal:9210":   200,
		"Sluice.Internal":        200,
		"ops.example:8443":       200,
	} {
		status, body := hostGet(t, f.http.URL, host, "", "")
		if status != want {
			t.Errorf("Host %s: %d, want %d: %s", host, status, want, body)
		}
		if want == http.StatusForbidden && !strings.Contains(body, "--allowed-hosts") {
			t.Errorf("Host %s: the refusal does not say what to do: %s", host, body)
		}
	}

	// With authentication, any Host is allowed: credentials are what
	// a rebound page lacks.
	a := newAuthFixture(t, nil)
	if status, body := hostGet(t, a.url, "evil.example:9210", "bob", "bob-pw"); status != 200 {
		t.Errorf("with authentication, Host evil.example: %d %s", status, body)
	}
}
