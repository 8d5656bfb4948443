package storage

import (
	"fmt"
	"strings"
)

// WrapOnce prefixes err with "op uri: " unless err already says so: a
// store's errors name their operation and object, and a caller adding
// the same words printed "listing s3://b/p/: listing s3://b: ...". When
// err names the operation on a part of uri (its bucket), that part gives
// way to the whole uri; errors.Is and As still see err.
func WrapOnce(op, uri string, err error) error {
	if err == nil {
		return nil
	}
	prefix := op + " " + uri
	msg := err.Error()
	if strings.HasPrefix(msg, prefix+":") {
		return err
	}
	if rest, ok := strings.CutPrefix(msg, op+" "); ok {
		if named, tail, ok := strings.Cut(rest, ": "); ok && named != "" && strings.HasPrefix(uri, named) {
			return &onceError{msg: prefix + ": " + tail, err: err}
		}
	}
	return fmt.Errorf("%s: %w", prefix, err)
}

type onceError struct {
	msg string
	err error
}

func (e *onceError) Error() string { return e.msg }
func (e *onceError) Unwrap() error { return e.err }
