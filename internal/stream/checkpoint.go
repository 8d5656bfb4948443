package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/formatver"
	"sluice/internal/storage"
)

// Checkpoint is a stream's progress in a store, under Prefix:
//
//	offsets/N   what epoch N reads and the watermark it uses, written
//	            before the epoch runs (put-if-absent: one writer wins)
//	state/N/ID  snapshot of the stateful operator with id ID (kind-ordinal,
//	            "window_aggregate-0") after epoch N; checkpoints written
//	            before ids existed number them state/N/0, 1, ...
//	state/N/ID.delta  what epoch N changed in an exec.Incremental
//	            operator's state; commits/N says how many deltas follow
//	            the last full snapshot (see StateEntry.Deltas)
//	commits/N   epoch N is done: its output is flushed, its state saved;
//	            its "state" lists the operators' ids and fingerprints
//	sources/    the source's own progress (seen files)
//	metadata    the stream's id and query, written once
type Checkpoint struct {
	Store  storage.Store
	Prefix string
}

// OffsetRecord is the content of offsets/N.
type OffsetRecord struct {
	// Stamp is the file's format version (formatver.Offsets), set when
	// it is written.
	formatver.Stamp
	Epoch int64 `json:"epoch"`
	// Source is the source's offset: for files, exactly the files read.
	Source connector.Offset `json:"source"`
	// Watermark (microseconds) that lateness is judged against in this
	// epoch, so a replay decides identically.
	Watermark int64 `json:"watermark"`
	// LateWatermark is what rows are judged late against: the previous
	// epoch's watermark, as in Spark. Nil in checkpoints written before
	// it was kept, whose epochs judged against Watermark.
	LateWatermark *int64 `json:"late_watermark,omitempty"`
	// MaxEventTime seen before this epoch (microseconds), from which the
	// next watermark is derived.
	MaxEventTime int64 `json:"max_event_time,omitempty"`
	// Time the epoch was planned (Unix microseconds, processing time).
	Time int64 `json:"time"`
}

// Late is the watermark epoch rec judges late rows against.
func (rec *OffsetRecord) Late() int64 {
	if rec.LateWatermark == nil {
		return rec.Watermark
	}
	return *rec.LateWatermark
}

// CommitRecord is the content of commits/N.
type CommitRecord struct {
	// Stamp is the file's format version (formatver.Commits), set when
	// it is written.
	formatver.Stamp
	Epoch   int64 `json:"epoch"`
	RowsIn  int64 `json:"rows_in"`
	RowsOut int64 `json:"rows_out"`
	Files   int   `json:"files"`
	Bytes   int64 `json:"bytes"`
	Late    int64 `json:"late_rows"`
	BadRows int64 `json:"bad_rows,omitempty"`
	// MaxEventTime seen through this epoch and the watermark the next
	// epoch will use (µs); a restart resumes event time from them.
	MaxEventTime  int64 `json:"max_event_time,omitempty"`
	NextWatermark int64 `json:"next_watermark,omitempty"`
	Time          int64 `json:"time"`
	Duration      int64 `json:"duration_us"`
	// State is what state/N holds; nil in checkpoints written before
	// stateful operators had ids.
	State *StateManifest `json:"state,omitempty"`
	// Totals are the counts through this epoch since the stream's first;
	// nil in checkpoints written before they were kept (they start at
	// zero on the next run).
	Totals *Totals `json:"totals,omitempty"`
	// Phases is the epoch's time by phase; nil in commits written before
	// they were kept. An optional field: older binaries ignore it, so the
	// format's version stays.
	Phases *PhasesJSON `json:"phases,omitempty"`
}

// StateManifest lists the stateful operators whose snapshots an epoch
// saved, so a restart can check that its plan's operators are the same.
type StateManifest struct {
	Operators []StateEntry `json:"operators"`
}

// StateEntry is one operator in a StateManifest.
type StateEntry struct {
	// StateFormat is the format version of the operator's snapshot and
	// deltas (formatver.State): they are binary, so the commit that lists
	// them keeps it. 0 (commits written before it was kept) is 1.
	StateFormat int                   `json:"state_format,omitempty"`
	ID          string                `json:"id"`
	Fingerprint string                `json:"fingerprint"`
	Description exec.StateDescription `json:"description"`
	// Rows is how many rows (groups) the operator held after the epoch,
	// for operators that tell (exec.StateRower); Bytes is the size of its
	// stored state: the full snapshot plus the deltas on it.
	Rows  int64 `json:"rows,omitempty"`
	Bytes int64 `json:"bytes,omitempty"`
	// Deltas is how many epochs' deltas (state/E/ID.delta for E in
	// N-Deltas+1..N) follow the full snapshot state/(N-Deltas)/ID; 0 (and
	// checkpoints written before deltas existed): state/N/ID is full.
	Deltas int64 `json:"deltas,omitempty"`
}

func (c *Checkpoint) key(parts ...string) string { return c.Prefix + strings.Join(parts, "/") }

// epochs lists the epoch numbers present under dir ("offsets" or "commits").
func (c *Checkpoint) epochs(ctx context.Context, dir string) ([]int64, error) {
	var out []int64
	p := c.key(dir) + "/"
	err := c.Store.List(ctx, p, "", func(o storage.ObjectInfo) error {
		name := strings.TrimPrefix(o.Key, p)
		if n, err := strconv.ParseInt(name, 10, 64); err == nil && n >= 0 {
			out = append(out, n)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s%s: %w", c.Store, p, err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

// Last returns the newest epoch under dir, or -1.
func (c *Checkpoint) Last(ctx context.Context, dir string) (int64, error) {
	es, err := c.epochs(ctx, dir)
	if err != nil || len(es) == 0 {
		return -1, err
	}
	return es[len(es)-1], nil
}

func (c *Checkpoint) readJSON(ctx context.Context, key string, v any) error {
	r, err := c.Store.Open(ctx, key)
	if err != nil {
		return err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("reading %s: %w", key, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("checkpoint file %s is corrupt: %w", key, err)
	}
	return nil
}

func (c *Checkpoint) writeJSON(ctx context.Context, key string, v any, ifAbsent bool) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.Store.Put(ctx, key, bytes.NewReader(append(data, '\n')), ifAbsent)
}

// file names key for messages.
func (c *Checkpoint) file(key string) string { return c.Store.String() + "/" + key }

// ReadOffset reads offsets/N, refusing a format newer than this binary's.
func (c *Checkpoint) ReadOffset(ctx context.Context, n int64) (*OffsetRecord, error) {
	var r OffsetRecord
	key := c.key("offsets", strconv.FormatInt(n, 10))
	if err := c.readJSON(ctx, key, &r); err != nil {
		return nil, err
	}
	if err := formatver.Offsets.Check(c.file(key), r.Stamp); err != nil {
		return nil, err
	}
	return &r, nil
}

// ErrConcurrentWriter means another process wrote the same epoch first.
var ErrConcurrentWriter = errors.New("another process is running this stream on the same checkpoint")

// WriteOffset writes offsets/N exclusively, in this binary's format.
func (c *Checkpoint) WriteOffset(ctx context.Context, r *OffsetRecord) error {
	r.Stamp = formatver.Offsets.Stamp()
	err := c.writeJSON(ctx, c.key("offsets", strconv.FormatInt(r.Epoch, 10)), r, true)
	if errors.Is(err, storage.ErrExists) {
		return fmt.Errorf("writing offsets/%d: %w", r.Epoch, ErrConcurrentWriter)
	}
	return err
}

// ReadCommit reads commits/N, refusing a format newer than this
// binary's, of the commit or of the state it lists.
func (c *Checkpoint) ReadCommit(ctx context.Context, n int64) (*CommitRecord, error) {
	var r CommitRecord
	key := c.key("commits", strconv.FormatInt(n, 10))
	if err := c.readJSON(ctx, key, &r); err != nil {
		return nil, err
	}
	if err := formatver.Commits.Check(c.file(key), r.Stamp); err != nil {
		return nil, err
	}
	if r.State != nil {
		for _, e := range r.State.Operators {
			// A newer state format bumps the commit's too, whose reader
			// is then the one to name.
			file := c.StateKey(n, e.ID)
			if e.Deltas > 0 {
				file = c.DeltaKey(n, e.ID)
			}
			if err := formatver.State.CheckVersion(c.file(file), e.StateFormat, r.Reader); err != nil {
				return nil, err
			}
		}
	}
	return &r, nil
}

// WriteCommit writes commits/N exclusively, in this binary's format.
func (c *Checkpoint) WriteCommit(ctx context.Context, r *CommitRecord) error {
	r.Stamp = formatver.Commits.Stamp()
	err := c.writeJSON(ctx, c.key("commits", strconv.FormatInt(r.Epoch, 10)), r, true)
	if errors.Is(err, storage.ErrExists) {
		return fmt.Errorf("writing commits/%d: %w", r.Epoch, ErrConcurrentWriter)
	}
	return err
}

// StateKey names the snapshot after epoch n of the operator with id id.
func (c *Checkpoint) StateKey(n int64, id string) string {
	return c.key("state", strconv.FormatInt(n, 10), id)
}

// DeltaKey names what epoch n changed in the state of the operator with
// id id.
func (c *Checkpoint) DeltaKey(n int64, id string) string {
	return c.StateKey(n, id) + deltaSuffix
}

const deltaSuffix = ".delta"

// legacyStateKey names the i-th stateful operator's snapshot in
// checkpoints written before operators had ids.
func (c *Checkpoint) legacyStateKey(n int64, i int) string {
	return c.StateKey(n, strconv.Itoa(i))
}

// String names the checkpoint's location for messages.
func (c *Checkpoint) String() string {
	return strings.TrimSuffix(fmt.Sprintf("%s/%s", c.Store, c.Prefix), "/")
}

// SourceArea is the part of the checkpoint the source owns.
func (c *Checkpoint) SourceArea() connector.CheckpointArea {
	return connector.CheckpointArea{Store: c.Store, Prefix: c.key("sources", "0") + "/"}
}

// Purge deletes offsets, commits and state older than keep epochs before
// last, so a long-running stream's checkpoint does not grow without end;
// never the full snapshots and deltas that commits/last restores from.
func (c *Checkpoint) Purge(ctx context.Context, last int64, keep int64) error {
	cut := last - keep
	if cut > 0 {
		rec, err := c.ReadCommit(ctx, last)
		if err != nil {
			return fmt.Errorf("reading commits/%d: %w", last, err)
		}
		if rec.State != nil {
			for _, e := range rec.State.Operators {
				cut = min(cut, last-e.Deltas)
			}
		}
	}
	if cut <= 0 {
		return nil
	}
	for _, dir := range []string{"offsets", "commits"} {
		es, err := c.epochs(ctx, dir)
		if err != nil {
			return err
		}
		for _, n := range es {
			if n >= cut {
				break
			}
			if err := c.Store.Delete(ctx, c.key(dir, strconv.FormatInt(n, 10))); err != nil {
				return err
			}
		}
	}
	p := c.key("state") + "/"
	var old []string
	err := c.Store.List(ctx, p, "", func(o storage.ObjectInfo) error {
		epoch, _, _ := strings.Cut(strings.TrimPrefix(o.Key, p), "/")
		if n, err := strconv.ParseInt(epoch, 10, 64); err == nil && n < cut {
			old = append(old, o.Key)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range old {
		if err := c.Store.Delete(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// RequestStop asks the process running this stream to stop after its
// running epoch (STOP STREAM from another process).
// Each request's content is new (a time), so workers sharing the stream,
// which never clear it, tell a fresh request from one made before they
// started (StopToken).
func (c *Checkpoint) RequestStop(ctx context.Context) error {
	return c.Store.Put(ctx, c.key("stop"), strings.NewReader("stop "+strconv.FormatInt(time.Now().UnixNano(), 10)+"\n"), false)
}

// StopToken is the pending stop request's content, "" when none.
func (c *Checkpoint) StopToken(ctx context.Context) string {
	r, err := c.Store.Open(ctx, c.key("stop"))
	if err != nil {
		return ""
	}
	defer r.Close()
	b, _ := io.ReadAll(io.LimitReader(r, 256))
	return string(b)
}

// StopRequested reports whether a stop request is pending.
func (c *Checkpoint) StopRequested(ctx context.Context) bool {
	_, err := c.Store.Stat(ctx, c.key("stop"))
	return err == nil
}

// ClearStop removes a stop request.
func (c *Checkpoint) ClearStop(ctx context.Context) error {
	return c.Store.Delete(ctx, c.key("stop"))
}
