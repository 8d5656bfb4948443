package job

import "context"

type abandonKey struct{}

// WithAbandon returns ctx carrying abandon, the second stage of stopping a
// foreground stream. Cancelling ctx asks a stream to stop at the next
// epoch boundary (the running epoch still commits); once abandon is done
// as well, the running epoch is abandoned instead: nothing of it commits,
// the statement fails with "stream NAME: abandoned epoch N (it will be
// replayed on the next start)", and the next start replays it exactly.
// Batch statements ignore abandon: cancelling ctx already stops them.
func WithAbandon(ctx context.Context, abandon <-chan struct{}) context.Context {
	return context.WithValue(ctx, abandonKey{}, abandon)
}

// Abandon is the channel WithAbandon put in ctx; nil (never ready) when
// there is none.
func Abandon(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(abandonKey{}).(<-chan struct{})
	return ch
}
