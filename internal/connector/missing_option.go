package connector

import "fmt"

// MissingOptionError is a required OPTIONS key that was not given. It is
// typed so that a statement naming the key differently (a materialized
// view's sink options are sink.<key>) can say the name its user types.
type MissingOptionError struct {
	Key string
}

func (e *MissingOptionError) Error() string { return fmt.Sprintf("option %s is required", e.Key) }
