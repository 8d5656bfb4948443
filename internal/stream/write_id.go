package stream

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"sluice/internal/formatver"
	"sluice/internal/storage"
)

// metadataRecord is the content of a checkpoint's metadata object.
type metadataRecord struct {
	// Stamp is its format version (formatver.Metadata).
	formatver.Stamp
	// ID names the stream's writes for sinks that name rows without an
	// id by their epoch (connector.SinkOptions.WriteID): two streams, or a
	// stream started over with a new checkpoint, writing equal rows at
	// equal epochs into one index then keep both.
	ID string `json:"id"`
}

// WriteID is the stream's id from the checkpoint's metadata, written
// (put-if-absent: every worker of the stream gets the winner's) when the
// checkpoint is new. A checkpoint a previous version started has no
// metadata but epochs: its id stays "", the id its epochs were written
// under, so a replay of one of them still overwrites what it wrote.
func (c *Checkpoint) WriteID(ctx context.Context) (string, error) {
	key := c.Prefix + "metadata"
	if id, err := c.readMetadata(ctx, key); err == nil || !errors.Is(err, storage.ErrNotFound) {
		return id, err
	}
	started, err := c.hasEpochs(ctx)
	if err != nil || started {
		return "", err
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	raw, _ := json.Marshal(metadataRecord{Stamp: formatver.Metadata.Stamp(), ID: hex.EncodeToString(b[:])})
	if err := c.Store.Put(ctx, key, bytes.NewReader(raw), true); err != nil && !errors.Is(err, storage.ErrExists) {
		return "", fmt.Errorf("writing checkpoint metadata: %w", err)
	}
	return c.readMetadata(ctx, key)
}

func (c *Checkpoint) readMetadata(ctx context.Context, key string) (string, error) {
	r, err := c.Store.Open(ctx, key)
	if err != nil {
		return "", err
	}
	defer r.Close()
	raw, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("reading checkpoint metadata: %w", err)
	}
	var rec metadataRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return "", fmt.Errorf("reading checkpoint metadata: %w", err)
	}
	if err := formatver.Metadata.Check(c.file(key), rec.Stamp); err != nil {
		return "", err
	}
	return rec.ID, nil
}

// hasEpochs reports whether anything but locks and markers is in the
// checkpoint: offsets, commits, state, a worker's or a partition's.
func (c *Checkpoint) hasEpochs(ctx context.Context) (bool, error) {
	errFound := errors.New("found")
	err := c.Store.List(ctx, c.Prefix, "", func(o storage.ObjectInfo) error {
		top, _, _ := strings.Cut(strings.TrimPrefix(o.Key, c.Prefix), "/")
		switch top {
		case "lock", "stop", "status", "metadata":
			return nil
		}
		return errFound
	})
	if errors.Is(err, errFound) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("listing checkpoint: %w", err)
	}
	return false, nil
}
