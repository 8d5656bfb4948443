package sql

import (
	"net/url"
	"strings"
)

// RedactURL hides the password of a URL with user:password@ in it
// (scheme://user:***@host/...), so a LOCATION or an endpoint option
// never prints a credential; anything else is returned as it is. A
// list of servers (nats://h1:4222,nats://u:pw@h2:4222/...; the later
// ones with or without a scheme) is redacted server by server, since
// url.Parse reads the later ones as a path.
func RedactURL(s string) string {
	if !strings.Contains(s, ",") || !strings.Contains(s, "://") {
		return redactOneURL(s)
	}
	parts := strings.Split(s, ",")
	scheme, _, _ := strings.Cut(parts[0], "://")
	for i, p := range parts {
		if i > 0 && !strings.Contains(p, "://") {
			parts[i] = strings.TrimPrefix(redactOneURL(scheme+"://"+p), scheme+"://")
		} else {
			parts[i] = redactOneURL(p)
		}
	}
	return strings.Join(parts, ",")
}

func redactOneURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); !ok {
		if sc := strings.ToLower(u.Scheme); (sc == "nats" || sc == "tls") && !strings.HasPrefix(u.User.Username(), "${") {
			// A lone user name is a token to NATS (nats://TOKEN@host).
			return strings.Replace(strings.Replace(u.String(), u.User.String()+"@", "***@", 1), "%2A%2A%2A", "***", 1)
		}
		return s
	}
	u.User = url.UserPassword(u.User.Username(), "***")
	return strings.Replace(u.String(), "%2A%2A%2A", "***", 1)
}
