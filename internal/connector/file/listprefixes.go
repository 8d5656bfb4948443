package file

import (
	"context"
	"sync"

	"sluice/internal/storage"
)

// maxParallelLists bounds the partition prefixes listed at once: enough
// to hide an object store's per-request latency when a filter pins many
// partitions, few enough not to trip its request-rate limits.
const maxParallelLists = 8

// listPrefixes lists several store prefixes at once and returns the
// accepted files of all of them, in no particular order (the caller
// sorts). The first error stops the rest.
func (l *location) listPrefixes(ctx context.Context, opts *sourceOptions, prefixes []string) ([]fileEntry, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	found := make([][]fileEntry, len(prefixes))
	sem := make(chan struct{}, maxParallelLists)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for i, p := range prefixes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			err := l.store.List(ctx, p, "", func(o storage.ObjectInfo) error {
				if f, ok := l.accept(o, opts); ok {
					found[i] = append(found[i], f)
				}
				return nil
			})
			if err != nil {
				// The first failure is the one to report; the listings it
				// cancels fail after it is recorded.
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				cancel()
			}
		}()
	}
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		return nil, storage.WrapOnce("listing", l.uri, firstErr)
	}
	var files []fileEntry
	for _, f := range found {
		files = append(files, f...)
	}
	return files, nil
}
