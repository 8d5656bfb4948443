package connector

import (
	"context"

	"sluice/internal/storage"
)

// CheckpointArea is the part of a stream's checkpoint a streaming source
// owns, to keep its own progress (the files it has seen) across restarts.
type CheckpointArea struct {
	Store  storage.Store
	Prefix string // ends with '/'
}

// StreamingSource is a source a streaming query reads incrementally.
//
// Lifecycle, driven by internal/stream:
//
//	Recover(area, committed)  once, before anything else: load progress as
//	                          of the last committed epoch (-1: none); drop
//	                          anything recorded for later epochs, which
//	                          will be replayed from their offsets.
//	Latest(ctx)               discover what is new since the last Commit,
//	                          within the rate limits (max_files_per_trigger,
//	                          max_bytes_per_trigger; always at least one
//	                          file). nil means nothing new.
//	Plan(ctx, nil, offset)    the splits of one epoch's offset: the same
//	                          splits every time, so a replay is exact.
//	Commit(epoch, offset)     the epoch is durable: its files are seen.
//
// Latest does not change what is seen: calling it twice without Commit
// returns the same data again (plus anything newer, within limits).
type StreamingSource interface {
	Source
	Recover(ctx context.Context, area CheckpointArea, committed int64) error
	Commit(ctx context.Context, epoch int64, offset Offset) error
}

// AvailableNowSource is a streaming source that can fix the end of its
// backlog: after PrepareAvailableNow, Latest only returns data that existed
// when it was called, so trigger 'available_now' stops once caught up even
// while new files keep landing.
type AvailableNowSource interface {
	PrepareAvailableNow(ctx context.Context) error
}
