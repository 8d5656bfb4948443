package queue

import (
	"context"
	"fmt"
	"net/url"
)

// OpenKafka is not built yet.
func OpenKafka(_ context.Context, u *url.URL) (Queue, error) {
	return nil, fmt.Errorf("%w: %s: kafka:// is not supported yet", ErrBadURL, Redact(u.String()))
}
