package sql

import (
	"net/url"
	"strings"
)

// RedactURL hides the password of a URL with user:password@ in it
// (scheme://user:***@host/...), so a LOCATION or an endpoint option
// never prints a credential; anything else is returned as it is.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); !ok {
		return s
	}
	u.User = url.UserPassword(u.User.Username(), "***")
	return strings.Replace(u.String(), "%2A%2A%2A", "***", 1)
}
