package cli

import (
	"fmt"
	"net/url"
	"strings"
)

// ServerURL is --server as a base URL. A bare host:port (how the server's
// own start-up line and most docs write it) means http, or https when a CA
// certificate to trust was given; a URL with a scheme is kept as written.
func ServerURL(s string, tls bool) (string, error) {
	if !strings.Contains(s, "://") {
		scheme := "http://"
		if tls {
			scheme = "https://"
		}
		s = scheme + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("--server %q: want host:port or http(s)://host:port", s)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("--server %q: scheme %s is not http or https", s, u.Scheme)
	}
	return strings.TrimSuffix(s, "/"), nil
}
