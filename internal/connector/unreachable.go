package connector

import "errors"

// ErrUnreachable wraps every error of a source or sink whose broker or
// server did not answer (a worker's NATS, Kafka or SQS down): unlike
// other errors it may pass by itself, so the engine runs a foreground
// stream that failed with it again after a backoff instead of ending
// the statement, and counts it in the stream's status. The queue
// package's ErrUnreachable is this error.
var ErrUnreachable = errors.New("queue unreachable")
