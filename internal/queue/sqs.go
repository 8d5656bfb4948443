package queue

import (
	"context"
	"fmt"
	"net/url"
)

// OpenSQS is not built yet.
func OpenSQS(_ context.Context, u *url.URL) (Queue, error) {
	return nil, fmt.Errorf("%w: %s: sqs:// is not supported yet", ErrBadURL, Redact(u.String()))
}
