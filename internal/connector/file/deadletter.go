package file

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"

	"sluice/internal/format"
	"sluice/internal/storage"
)

// maxDeadLetterRows bounds the bad rows kept per file: a file that is all
// garbage should not hold its whole text in memory twice.
const maxDeadLetterRows = 10_000

// deadLetter stores the rows decoders could not read, one JSON lines
// object per bad row ({"file", "line", "reason", "raw"}), one object in
// the dead_letter_location per data file. The object is named after the
// split's ID (URI and ETag), so reading the same file again (a replayed
// epoch) overwrites its report instead of adding another.
type deadLetter struct {
	store  storage.Store
	prefix string
}

func newDeadLetter(ctx context.Context, location string, opts map[string]string) (*deadLetter, error) {
	so, err := storage.OptionsFromMap(opts)
	if err != nil {
		return nil, err
	}
	st, prefix, err := storage.Resolve(ctx, location, so)
	if err != nil {
		return nil, fmt.Errorf("dead_letter_location: %w", err)
	}
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return &deadLetter{store: st, prefix: prefix}, nil
}

// key names the report of one split.
func (d *deadLetter) key(splitID string) string {
	return d.prefix + "bad-" + strconv.FormatUint(xxhash.Sum64String(splitID), 16) + ".json"
}

// badRows collects one reader's bad rows; OnBadRow runs on the reading
// goroutine but Close may come from another, hence the lock.
type badRows struct {
	mu      sync.Mutex
	rows    []format.BadRow
	dropped int64
}

func (b *badRows) add(r format.BadRow) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.rows) >= maxDeadLetterRows {
		b.dropped++
		return
	}
	b.rows = append(b.rows, r)
}

// save writes the collected rows, if any, as the split's report.
func (d *deadLetter) save(ctx context.Context, splitID string, b *badRows) error {
	b.mu.Lock()
	rows, dropped := b.rows, b.dropped
	b.rows, b.dropped = nil, 0
	b.mu.Unlock()
	if len(rows) == 0 {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, r := range rows {
		if err := enc.Encode(map[string]any{"file": r.File, "line": r.Line, "reason": r.Reason, "raw": r.Raw}); err != nil {
			return err
		}
	}
	if dropped > 0 {
		_ = enc.Encode(map[string]any{"file": rows[0].File, "reason": fmt.Sprintf("%d more bad rows not recorded", dropped)})
	}
	key := d.key(splitID)
	if err := d.store.Put(ctx, key, &buf, false); err != nil {
		return fmt.Errorf("writing bad rows to %s/%s: %w", strings.TrimSuffix(d.store.String(), "/"), key, err)
	}
	return nil
}
