package functions

import (
	"context"
	"time"
)

type nowKey struct{}

// WithNow fixes the query's current time: now(), current_timestamp and
// current_date read it, so every row and batch of one query agrees and
// tests are deterministic.
func WithNow(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, nowKey{}, t)
}

// Now returns the time set by WithNow, or the wall clock.
func Now(ctx context.Context) time.Time {
	if t, ok := ctx.Value(nowKey{}).(time.Time); ok {
		return t
	}
	return time.Now()
}
