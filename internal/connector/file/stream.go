package file

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/zstd"

	"sluice/internal/connector"
	"sluice/internal/format"
	"sluice/internal/formatver"
	"sluice/internal/queue"
	"sluice/internal/storage"
)

// StreamSource reads a file table as a stream: each epoch takes the files
// that appeared since the last one, within the rate limits.
//
// What has been seen is kept in the stream's checkpoint (its
// CheckpointArea): one small log entry per committed epoch, folded into a
// compacted snapshot every compactEvery epochs, so a restart reads one
// snapshot and a few entries however many files were ever seen. Entries
// older than max_file_age (relative to the newest file seen, as Spark
// does) are dropped from the snapshot, which keeps memory bounded by the
// age window rather than by history. With discovery 'start_after' only
// keys after the last one seen are listed, for locations whose keys sort
// by arrival (dated paths): then only the last key is needed at all.
type StreamSource struct {
	*Source
	area      connector.CheckpointArea
	committed int64

	mu      sync.Mutex
	seen    map[string]seenFile
	lastKey string
	newest  int64 // newest mtime seen (µs)
	// coveredUpTo: keys up to it were read in start_after mode, whose
	// snapshots keep no seen set; a stream switched to full discovery
	// must not take them for new.
	coveredUpTo  string
	sinceCompact int
	lagFiles     int
	lagBytes     int64
	bound        map[string]bool // available_now: the keys that existed at start
	warned       map[string]bool
	badRows      atomic.Int64
	stage        stageBad // rows failed above the scan this epoch (mu)
	// replayed: keys of a replayed epoch's files that changed since it
	// was planned, with the ETags read (PrepareReplay; used by Commit).
	replayed map[string]string

	// Warnf reports files skipped because they changed; default log.Printf.
	Warnf func(format string, args ...any)
	// Now is the clock of reconcile intervals and file ages
	// (reconcile.go); time.Now if nil.
	Now func() time.Time

	// notify is set with discovery 'notifications' (see notify.go), at
	// the first Recover; OpenQueue opens its queue (queue.Open if nil).
	notify       *notifier
	OpenQueue    func(ctx context.Context, url string) (queue.Queue, error)
	availableNow bool
	// shared: one of several workers (worker.go), in slot slot.
	shared bool
	slot   int
	// planned: the files of the epoch last planned, by sink epoch id,
	// with the queue sequences its offsets recorded (keyed.go).
	planned map[int64]fileEntry
}

type seenFile struct {
	ETag  string `json:"e,omitempty"`
	MTime int64  `json:"m"`
}

// compactEvery is how many epochs of seen-file log entries are kept
// before they are folded into a snapshot.
const compactEvery = 10

var (
	_ connector.StreamingSource    = (*StreamSource)(nil)
	_ connector.AvailableNowSource = (*StreamSource)(nil)
	_ connector.ReconcileCounter   = (*StreamSource)(nil)
	_ io.Closer                    = (*StreamSource)(nil)
)

// NewStreamSource wraps a file source (already narrowed by projection and
// filter pushdown) for streaming.
func NewStreamSource(src connector.Source) (*StreamSource, error) {
	s, ok := src.(*Source)
	if !ok {
		return nil, fmt.Errorf("%T is not a file source", src)
	}
	switch s.sopts.Discovery {
	case "", "listing", "full", "start_after":
	case "notifications":
		if s.sopts.Queue == "" {
			return nil, fmt.Errorf("table %s: discovery 'notifications' needs queue = 'nats://host:4222/<stream>/<consumer>' (or sqs://, kafka://)", s.spec.Name)
		}
	default:
		return nil, fmt.Errorf("table %s: discovery %q: want full, start_after or notifications", s.spec.Name, s.sopts.Discovery)
	}
	c := *s
	c.readAsIs = true
	return &StreamSource{Source: &c, seen: map[string]seenFile{}, committed: -1, warned: map[string]bool{}}, nil
}

func (s *StreamSource) startAfter() bool { return s.sopts.Discovery == "start_after" }

var _ connector.DiscoveryDescriber = (*StreamSource)(nil)

// DiscoveryDescription implements connector.DiscoveryDescriber.
func (s *StreamSource) DiscoveryDescription() string {
	switch {
	case s.notifications():
		return "discovery=notifications queue=" + queue.Redact(s.sopts.Queue)
	case s.startAfter():
		return "discovery=start_after"
	}
	return "discovery=full"
}

func (s *StreamSource) warnf(format string, args ...any) {
	if s.Warnf != nil {
		s.Warnf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// snapshot is the compacted seen set as stored.
type snapshot struct {
	// Stamp is its format version (formatver.SeenFiles).
	formatver.Stamp
	Epoch   int64               `json:"epoch"`
	LastKey string              `json:"last_key,omitempty"`
	Newest  int64               `json:"newest_us,omitempty"`
	Seen    map[string]seenFile `json:"seen"`
	// CoveredUpTo: every key up to it was read (start_after snapshots).
	CoveredUpTo string `json:"covered_up_to,omitempty"`
}

// logEntry is one committed epoch's files.
type logEntry struct {
	// Stamp is its format version (formatver.SeenFiles).
	formatver.Stamp
	Epoch int64       `json:"epoch"`
	Files []fileEntry `json:"files"`
}

// file names key for messages.
func (s *StreamSource) file(key string) string { return s.area.Store.String() + "/" + key }

func (s *StreamSource) snapKey(epoch int64) string {
	return s.area.Prefix + "snapshot/" + strconv.FormatInt(epoch, 10) + ".json.zst"
}
func (s *StreamSource) logKey(epoch int64) string {
	return s.area.Prefix + "log/" + strconv.FormatInt(epoch, 10)
}

// Recover loads the seen set as of epoch committed.
func (s *StreamSource) Recover(ctx context.Context, area connector.CheckpointArea, committed int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.area, s.committed = area, committed
	s.seen = map[string]seenFile{}
	snaps, err := s.epochsUnder(ctx, "snapshot/")
	if err != nil {
		return err
	}
	base := int64(-1)
	for i := len(snaps) - 1; i >= 0; i-- {
		if snaps[i] <= committed {
			base = snaps[i]
			break
		}
	}
	if base >= 0 {
		var sn snapshot
		if err := s.readZst(ctx, s.snapKey(base), &sn); err != nil {
			return err
		}
		if err := formatver.SeenFiles.Check(s.file(s.snapKey(base)), sn.Stamp); err != nil {
			return err
		}
		s.seen, s.lastKey, s.newest, s.coveredUpTo = sn.Seen, sn.LastKey, sn.Newest, sn.CoveredUpTo
		if s.seen == nil {
			s.seen = map[string]seenFile{}
		}
	}
	logs, err := s.epochsUnder(ctx, "log/")
	if err != nil {
		return err
	}
	for _, e := range logs {
		switch {
		case e <= base:
		case e <= committed:
			var le logEntry
			if err := s.readJSON(ctx, s.logKey(e), &le); err != nil {
				return err
			}
			if err := formatver.SeenFiles.Check(s.file(s.logKey(e)), le.Stamp); err != nil {
				return err
			}
			s.addLocked(le.Files)
			s.sinceCompact++
		default:
			// Written by an epoch that never committed: it is replayed from
			// its offsets, and its entry rewritten then.
			if err := area.Store.Delete(ctx, s.logKey(e)); err != nil {
				return fmt.Errorf("recovering seen files: %w", err)
			}
		}
	}
	if s.notifications() {
		return s.recoverNotify(ctx)
	}
	return nil
}

func (s *StreamSource) addLocked(files []fileEntry) {
	for _, f := range files {
		s.seen[f.Key] = seenFile{ETag: f.ETag, MTime: f.MTime}
		if f.Key > s.lastKey {
			s.lastKey = f.Key
		}
		s.newest = max(s.newest, f.MTime)
	}
}

// PrepareAvailableNow fixes the backlog: files landing later wait for the
// next run.
func (s *StreamSource) PrepareAvailableNow(ctx context.Context) error {
	if s.notifications() {
		// The backlog is what the queue holds: Latest drains it.
		s.availableNow = true
		return nil
	}
	files, err := s.list(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bound = make(map[string]bool, len(files))
	for _, f := range files {
		s.bound[f.Key] = true
	}
	return nil
}

// list lists the location, only past the last key in start_after mode.
func (s *StreamSource) list(ctx context.Context) ([]fileEntry, error) {
	if !s.startAfter() {
		return s.listFiles(ctx)
	}
	s.mu.Lock()
	after := s.lastKey
	s.mu.Unlock()
	var files []fileEntry
	err := s.loc.store.List(ctx, s.loc.listPrefix(), after, func(o storage.ObjectInfo) error {
		if f, ok := s.loc.accept(o, &s.sopts); ok {
			files = append(files, f)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("table %s: listing %s: %w", s.spec.Name, s.loc.uri, err)
	}
	return files, nil
}

// Latest lists what is new, oldest first (newest first with
// latest_first), bounded by max_files_per_trigger and
// max_bytes_per_trigger but always at least one file. nil: nothing new.
func (s *StreamSource) Latest(ctx context.Context) (connector.Offset, error) {
	var files []fileEntry
	var err error
	if s.notifications() {
		files, err = s.discoverNotified(ctx)
	} else {
		files, err = s.list(ctx)
	}
	if err != nil {
		return nil, err
	}
	off, drop, err := s.choose(files)
	if s.notifications() {
		s.dropUnselected(ctx, drop)
	}
	return off, err
}

// choose applies the selection rules and rate limits to what discovery
// found; drop are the files ruled out for good (for notifications).
func (s *StreamSource) choose(files []fileEntry) (connector.Offset, []fileEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var fresh, drop []fileEntry
	ageCut := int64(-1 << 63)
	if s.sopts.MaxFileAge > 0 {
		newest := s.newest
		for _, f := range files {
			newest = max(newest, f.MTime)
		}
		ageCut = newest - s.sopts.MaxFileAge.Microseconds()
	}
	for _, f := range files {
		if s.bound != nil && !s.bound[f.Key] {
			continue
		}
		if f.MTime < ageCut {
			drop = append(drop, f)
			continue
		}
		old, ok := s.seen[f.Key]
		if !ok && f.Key <= s.coveredUpTo {
			drop = append(drop, f)
			continue
		}
		if ok {
			if storage.SameVersion(old.ETag, f.ETag) || old.ETag == "" || f.ETag == "" {
				drop = append(drop, f)
				continue
			}
			if !s.sopts.ReprocessChangedFiles {
				if !s.warned[f.Key+f.ETag] {
					s.warned[f.Key+f.ETag] = true
					s.warnf("warning: table %s: %s changed after it was read (etag %s -> %s); ignoring it (set reprocess_changed_files = true to read it again)",
						s.spec.Name, f.Key, old.ETag, f.ETag)
				}
				drop = append(drop, f)
				continue
			}
		}
		fresh = append(fresh, f)
	}
	sort.SliceStable(fresh, func(i, j int) bool {
		if fresh[i].MTime != fresh[j].MTime {
			if s.sopts.LatestFirst {
				return fresh[i].MTime > fresh[j].MTime
			}
			return fresh[i].MTime < fresh[j].MTime
		}
		return fresh[i].Key < fresh[j].Key
	})
	take := len(fresh)
	if s.sopts.MaxFilesPerTrigger > 0 && take > s.sopts.MaxFilesPerTrigger {
		take = s.sopts.MaxFilesPerTrigger
	}
	if s.sopts.MaxBytesPerTrigger > 0 {
		var bytes int64
		for i := 0; i < take; i++ {
			bytes += fresh[i].Size
			if bytes > s.sopts.MaxBytesPerTrigger && i > 0 {
				take = i
				break
			}
		}
	}
	s.lagFiles, s.lagBytes = len(fresh)-take, 0
	for _, f := range fresh[take:] {
		s.lagBytes += f.Size
	}
	if take == 0 {
		return nil, drop, nil
	}
	chosen := append([]fileEntry(nil), fresh[:take]...)
	sort.Slice(chosen, func(i, j int) bool { return chosen[i].Key < chosen[j].Key })
	off, err := json.Marshal(fileOffset{Files: chosen})
	return off, drop, err
}

// Plan returns the epoch's files; files named by skip_files since the
// epoch was planned are left out, so a stream stopped by a bad file can
// resume past it.
func (s *StreamSource) Plan(ctx context.Context, from, to connector.Offset) ([]connector.Split, error) {
	off, err := decodeOffset(to)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.spec.Name, err)
	}
	if len(s.sopts.SkipFiles) > 0 {
		kept := off.Files[:0:0]
		for _, f := range off.Files {
			rel := strings.TrimPrefix(f.Key, s.loc.base)
			skip := false
			for _, g := range s.sopts.SkipFiles {
				if g.Match(rel) {
					skip = true
					break
				}
			}
			if !skip {
				kept = append(kept, f)
			}
		}
		off.Files = kept
		if to, err = json.Marshal(off); err != nil {
			return nil, err
		}
	}
	if s.shared {
		s.notePlanned(off.Files)
	}
	return s.Source.plan(ctx, nil, to, false)
}

// Commit records the epoch's files as seen, durably.
func (s *StreamSource) Commit(ctx context.Context, epoch int64, offset connector.Offset) error {
	off, err := decodeOffset(offset)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if len(s.replayed) > 0 {
		for i, f := range off.Files {
			if etag, ok := s.replayed[f.Key]; ok {
				off.Files[i].ETag = etag
			}
		}
	}
	s.replayed = nil
	s.mu.Unlock()
	for i := range off.Files {
		off.Files[i].Seqs, off.Files[i].Listed, off.Files[i].Reconciled = nil, false, false
	}
	data, err := json.Marshal(logEntry{Stamp: formatver.SeenFiles.Stamp(), Epoch: epoch, Files: off.Files})
	if err != nil {
		return err
	}
	if err := s.area.Store.Put(ctx, s.logKey(epoch), bytes.NewReader(data), false); err != nil {
		return fmt.Errorf("recording seen files: %w", err)
	}
	s.mu.Lock()
	s.addLocked(off.Files)
	s.committed = epoch
	s.sinceCompact++
	compact := s.sinceCompact >= compactEvery
	s.mu.Unlock()
	if s.notify != nil {
		if err := s.commitNotified(ctx, off.Files); err != nil {
			return err
		}
	}
	if compact {
		return s.compact(ctx, epoch)
	}
	return nil
}

// compact writes the seen set as one snapshot and drops what it covers.
func (s *StreamSource) compact(ctx context.Context, epoch int64) error {
	s.mu.Lock()
	if s.sopts.MaxFileAge > 0 {
		cut := s.newest - s.sopts.MaxFileAge.Microseconds()
		for k, f := range s.seen {
			if f.MTime < cut {
				delete(s.seen, k)
			}
		}
	}
	sn := snapshot{Stamp: formatver.SeenFiles.Stamp(), Epoch: epoch, LastKey: s.lastKey, Newest: s.newest, Seen: s.seen, CoveredUpTo: s.coveredUpTo}
	if s.startAfter() {
		// Only keys after lastKey are ever listed again.
		sn.Seen = map[string]seenFile{}
		sn.CoveredUpTo = s.lastKey
	}
	var buf bytes.Buffer
	zw, _ := zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedFastest))
	err := json.NewEncoder(zw).Encode(sn)
	s.sinceCompact = 0
	s.mu.Unlock()
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return fmt.Errorf("compacting seen files: %w", err)
	}
	if err := s.area.Store.Put(ctx, s.snapKey(epoch), &buf, false); err != nil {
		return fmt.Errorf("compacting seen files: %w", err)
	}
	for _, dir := range []string{"log/", "snapshot/"} {
		es, err := s.epochsUnder(ctx, dir)
		if err != nil {
			return err
		}
		for _, e := range es {
			if e < epoch || (dir == "log/" && e == epoch) {
				key := s.logKey(e)
				if dir == "snapshot/" {
					key = s.snapKey(e)
				}
				if err := s.area.Store.Delete(ctx, key); err != nil {
					return fmt.Errorf("compacting seen files: %w", err)
				}
			}
		}
	}
	return nil
}

// Open counts the split's malformed rows (mode DROPMALFORMED or
// PERMISSIVE) when its reader closes, for the epoch's progress.
func (s *StreamSource) Open(ctx context.Context, split connector.Split) (connector.RecordReader, error) {
	rr, err := s.Source.Open(ctx, split)
	if err != nil {
		return nil, err
	}
	if r, ok := rr.(*reader); ok {
		return &badCountingReader{reader: r, n: &s.badRows}, nil
	}
	return rr, nil
}

type badCountingReader struct {
	*reader
	n *atomic.Int64
}

func (r *badCountingReader) Close() error {
	if sr, ok := r.fr.(format.StatsReader); ok {
		r.n.Add(sr.Stats().BadRows)
	}
	return r.reader.Close()
}

// TakeBadRows returns the malformed rows counted since the last call.
func (s *StreamSource) TakeBadRows() int64 { return s.badRows.Swap(0) }

// Lag is what the rate limits left for later epochs at the last Latest.
func (s *StreamSource) Lag() (int, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lagFiles, s.lagBytes
}

// Seen is the number of files in the seen set (for tests and DESCRIBE).
func (s *StreamSource) Seen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

func (s *StreamSource) epochsUnder(ctx context.Context, dir string) ([]int64, error) {
	p := s.area.Prefix + dir
	var out []int64
	err := s.area.Store.List(ctx, p, "", func(o storage.ObjectInfo) error {
		name := strings.TrimSuffix(strings.TrimPrefix(o.Key, p), ".json.zst")
		if n, err := strconv.ParseInt(name, 10, 64); err == nil {
			out = append(out, n)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading seen files: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

func (s *StreamSource) readJSON(ctx context.Context, key string, v any) error {
	r, err := s.area.Store.Open(ctx, key)
	if err != nil {
		return fmt.Errorf("reading seen files: %w", err)
	}
	defer r.Close()
	if err := json.NewDecoder(r).Decode(v); err != nil {
		return fmt.Errorf("reading seen files %s: %w", key, err)
	}
	return nil
}

func (s *StreamSource) readZst(ctx context.Context, key string, v any) error {
	r, err := s.area.Store.Open(ctx, key)
	if err != nil {
		return fmt.Errorf("reading seen files: %w", err)
	}
	defer r.Close()
	zr, err := zstd.NewReader(r)
	if err != nil {
		return fmt.Errorf("reading seen files %s: %w", key, err)
	}
	defer zr.Close()
	data, err := io.ReadAll(zr)
	if err != nil {
		return fmt.Errorf("reading seen files %s: %w", key, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("reading seen files %s: %w", key, err)
	}
	return nil
}
