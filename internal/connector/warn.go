package connector

import "context"

type warnKey struct{}

// WithWarn returns a context through which connectors report warnings to
// fn: conditions the user should hear about that do not stop the
// statement, such as a table whose location does not exist reading as
// empty. fn may be called from any goroutine.
func WithWarn(ctx context.Context, fn func(msg string)) context.Context {
	if fn == nil {
		return ctx
	}
	return context.WithValue(ctx, warnKey{}, fn)
}

// Warn reports msg to the function WithWarn put in ctx, if any.
func Warn(ctx context.Context, msg string) {
	if fn, ok := ctx.Value(warnKey{}).(func(string)); ok {
		fn(msg)
	}
}
