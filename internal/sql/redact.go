package sql

import (
	"regexp"
	"strings"
)

// The one redaction mechanism: every place that shows option values or
// statement text (SHOW CREATE TABLE, DESCRIBE, EXPLAIN, SHOW STREAMS,
// SHOW SETTINGS, error messages, the statement text the engine echoes,
// the shell history) goes through RedactValue or RedactText.

// RedactValue is how an option's value may be shown: '***' for a key
// that names a credential (IsSecretKey), else the value with the user
// info of any URL in it hidden (RedactText).
func RedactValue(key, value string) string {
	if IsSecretKey(key) {
		return "***"
	}
	return RedactText(value)
}

// urlUserInfo matches the user info of a URL: scheme://user:password@ or
// scheme://token@. The host must follow, so "a://b" without '@' is left.
var urlUserInfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://)([^\s/?#@'"]+)@`)

// RedactText hides the user info of every URL in s: the password of
// user:password, or the whole of a user part without a password (often a
// token). http://sluice:PW@host/ becomes http://sluice:***@host/.
func RedactText(s string) string {
	if !strings.Contains(s, "@") || !strings.Contains(s, "://") {
		return s
	}
	return urlUserInfo.ReplaceAllStringFunc(s, func(m string) string {
		sub := urlUserInfo.FindStringSubmatch(m)
		scheme, info := sub[1], sub[2]
		if user, _, ok := strings.Cut(info, ":"); ok {
			return scheme + user + ":***@"
		}
		return scheme + "***@"
	})
}

// redactedError shows an error's text redacted while keeping its chain
// for errors.Is and errors.As.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// RedactError returns err with URL user info hidden from its text (err
// itself when there is none to hide).
func RedactError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if r := RedactText(msg); r != msg {
		return &redactedError{msg: r, err: err}
	}
	return err
}
