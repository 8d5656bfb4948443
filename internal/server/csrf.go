package server

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
)

// csrfHeader carries the console's anti-CSRF token.
const csrfHeader = "X-Sluice-CSRF"

// csrfMetaTag is where index.html carries the token: the server fills it
// in for each page it serves, and console.js sends it with every request
// that changes something.
const csrfMetaTag = `<meta name="sluice-csrf" content="">`

// newCSRFKey is the key a server signs tokens with, new at each start
// (a console page from before a restart asks to be reloaded).
func newCSRFKey() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
}

// csrfToken is p's token: a MAC of its name, so one user's page gives no
// token for another, and nothing needs to be stored.
func (s *Server) csrfToken(p principal) string {
	m := hmac.New(sha256.New, s.csrfKey)
	m.Write([]byte(p.name))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// checkCSRF refuses a state-changing request from a browser without its
// user's token. http.CrossOriginProtection already refuses cross-site
// ones; this also covers what looks same-origin to the browser but is
// not the console (a rebound name with --allowed-hosts, another app on
// the same origin), and credentials the browser adds by itself (basic
// auth it remembers, cookies). Browsers mark their requests (Origin on
// every non-GET fetch and form, Sec-Fetch-Site, cookies); clients that
// are not browsers send none of those and need no token.
func (s *Server) checkCSRF(r *http.Request, p principal) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	h := r.Header
	if h.Get("Origin") == "" && h.Get("Sec-Fetch-Site") == "" && h.Get("Cookie") == "" {
		return nil
	}
	if got := h.Get(csrfHeader); got != "" && hmac.Equal([]byte(got), []byte(s.csrfToken(p))) {
		return nil
	}
	return &forbiddenError{msg: "a request from a browser that changes something needs the console's anti-CSRF token in the " +
		csrfHeader + " header: reload the console page"}
}

// consolePage is index.html with p's token filled in.
func (s *Server) consolePage(index []byte, p principal) []byte {
	return bytes.Replace(index, []byte(csrfMetaTag), []byte(`<meta name="sluice-csrf" content="`+s.csrfToken(p)+`">`), 1)
}
