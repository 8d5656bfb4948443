package partition

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"sluice/internal/formatver"
	"sluice/internal/storage"
	"sluice/internal/stream"
)

// meta is <checkpoint>/keyed/meta.json: what every partition's state
// depends on, fixed at the stream's first start.
type meta struct {
	// Stamp is its format version (formatver.KeyedMeta).
	formatver.Stamp
	Partitions  int    `json:"partitions"`
	Fingerprint string `json:"state_fingerprint"`
}

// CheckMeta records the partition count and the window state's
// fingerprint at the first start, and refuses a later start with others:
// keys hashed over another count, or state restored into another
// aggregation, would fold into the wrong windows.
func CheckMeta(ctx context.Context, base *stream.Checkpoint, parts int, fingerprint string) error {
	key := base.Prefix + "keyed/meta.json"
	want := meta{Stamp: formatver.KeyedMeta.Stamp(), Partitions: parts, Fingerprint: fingerprint}
	data, _ := json.Marshal(want)
	err := base.Store.Put(ctx, key, bytes.NewReader(data), true)
	if err == nil {
		return nil
	}
	if !errors.Is(err, storage.ErrExists) {
		return fmt.Errorf("writing %s: %w", key, err)
	}
	r, err := base.Store.Open(ctx, key)
	if err != nil {
		return fmt.Errorf("reading %s: %w", key, err)
	}
	defer r.Close()
	old, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("reading %s: %w", key, err)
	}
	var got meta
	if err := json.Unmarshal(old, &got); err != nil {
		return fmt.Errorf("%s is corrupt: %w", key, err)
	}
	if err := formatver.KeyedMeta.Check(base.Store.String()+"/"+key, got.Stamp); err != nil {
		return err
	}
	if got.Partitions != parts {
		return fmt.Errorf("the checkpoint was started with partitions = %d, not %d (the count cannot change)", got.Partitions, parts)
	}
	if got.Fingerprint != fingerprint {
		return fmt.Errorf("the checkpoint holds the state of another aggregation (the query's GROUP BY, window or aggregates changed); use a new checkpoint_location")
	}
	return nil
}
