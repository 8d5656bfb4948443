package partition

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"

	"sluice/internal/queue"
)

// TestQueueError: what a broker that is down or busy returns is a queue
// outage (retried); what it refuses for good is not.
func TestQueueError(t *testing.T) {
	for _, c := range []struct {
		err         error
		unreachable bool
	}{
		{kerr.NotLeaderForPartition, true},
		{kerr.RequestTimedOut, true},
		{&net.OpError{Op: "dial", Err: errors.New("connection refused")}, true},
		{fmt.Errorf("producing: %w", context.DeadlineExceeded), true},
		{kerr.TopicAuthorizationFailed, false},
		{kerr.MessageTooLarge, false},
		{context.Canceled, false},
	} {
		if got := errors.Is(queueError(c.err), queue.ErrUnreachable); got != c.unreachable {
			t.Errorf("%v: unreachable %v, want %v", c.err, got, c.unreachable)
		}
	}
}
