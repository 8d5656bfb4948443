package queue

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// sqsHealth remembers whether the latest request to the SQS endpoint
// could be sent and answered, so Check knows without a round trip that
// the endpoint is down (a receiver holding messages makes no receive
// until it has worked on them, but extends them and reads the backlog).
type sqsHealth struct {
	mu     sync.Mutex
	failed error
}

// note records a request's outcome and returns its error, wrapped as
// ErrUnreachable when the request never got an answer (refused,
// reset, timed out: the endpoint is down or cut off). An answer, even a
// refusal, means the endpoint is reachable.
func (h *sqsHealth) note(ctx context.Context, err error) error {
	down := sqsUnreachable(ctx, err)
	h.mu.Lock()
	if down {
		h.failed = err
	} else if ctx.Err() == nil {
		h.failed = nil
	}
	h.mu.Unlock()
	if down {
		return fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	return err
}

func sqsUnreachable(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	var send *smithyhttp.RequestSendError
	var ne net.Error
	return errors.As(err, &send) || errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded)
}

// Check fails while the latest request got no answer.
func (q *SQS) Check() error {
	q.health.mu.Lock()
	err := q.health.failed
	q.health.mu.Unlock()
	if err != nil {
		return fmt.Errorf("sqs %s: %w: no answer (%v)", q.queueURL, ErrUnreachable, err)
	}
	return nil
}
