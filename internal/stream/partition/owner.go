package partition

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cespare/xxhash/v2"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/formatver"
	"sluice/internal/storage"
	"sluice/internal/stream"
)

// Owner runs the partitions this worker leases: per partition, epochs of
// its own under <checkpoint>/keyed/p<n>/ (offsets/N: the subject
// sequence range and the watermark; state/N/partition: the window state
// and the files folded into each open window; commits/N), folding the
// range's partials into a WindowAggregate and writing the windows the
// watermark closed to the sink under an epoch id derived from (stream,
// partition, N). A replay of N (after a crash, by a new owner) starts
// from commit N-1's state and reads the same range under the same
// watermark: the same rows under the same id. offsets/N and commits/N
// are written if absent, so of two owners racing on a partition (one
// paused past its lease) the second to plan N replays the first's plan
// and the second to commit N fails and drops the partition.
type Owner struct {
	Stream   string
	Parts    int
	PStream  jetstream.Stream
	Leases   *Leases
	Tracker  *Tracker
	Base     *stream.Checkpoint // the stream's checkpoint root
	Template *exec.WindowAggregate
	// Above are the stateless operators between the aggregate and the
	// sink (the projection).
	Above    []exec.Operator
	Sink     connector.Sink
	Interval time.Duration
	Logf     func(format string, args ...any)
	// Backfilled reports whether every file of the stream's first
	// listing is committed by its reader (nil: there is no listing).
	// Until then no file id is forgotten: a listed file's partials may
	// still come, tagged with no queue sequence.
	Backfilled func(ctx context.Context) (bool, error)

	// Over Kafka (DialKafka) these stand for PStream, Leases and
	// Tracker, which are JetStream's (nil: those).
	plog  partialLog
	group *kafkaGroup
	marks watermarker

	// floor is the file queue's ack floor read before this round's
	// epochs read their ranges (Run; tests set it).
	floor      uint64
	backfilled bool

	mu     sync.Mutex
	parts  map[int]*ownedPart
	owners map[int]Holder
	live   []string
	wm     int64
	stats  connector.KeyedStats
}

type ownedPart struct {
	id    int
	gen   uint64
	cp    *stream.Checkpoint
	agg   *exec.WindowAggregate
	files map[int64]map[int64]uint64 // window start -> file folded -> its tag (fileTag)
	// horizon: every queue message up to it was acknowledged, and every
	// partial published for their files folded, when the last commit
	// was planned; a partial tagged at or below it is a duplicate.
	horizon uint64
	seq     uint64 // last subject sequence folded
	ids     int64  // file ids remembered as of the last commit (under Owner.mu)
	wm      int64  // watermark of the last epoch
	next    int64  // next epoch
	in      partialReader
	held    []partialRec // fetched past the planned range
}

// Status is this worker's partitions, every partition's owner as last
// read, the live workers and the watermark, for DESCRIBE STREAM.
func (o *Owner) Status() (mine []int, owners map[int]Holder, live []string, wm int64, st connector.KeyedStats) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for p := range o.parts {
		mine = append(mine, p)
	}
	sort.Ints(mine)
	owners = map[int]Holder{}
	for p, w := range o.owners {
		owners[p] = w
	}
	st = o.stats
	for _, part := range o.parts {
		st.FileIDs += part.ids
	}
	return mine, owners, append([]string(nil), o.live...), o.wm, st
}

func (o *Owner) logf(format string, args ...any) {
	if o.Logf != nil {
		o.Logf(format, args...)
	}
}

func (o *Owner) partCheckpoint(p int) *stream.Checkpoint {
	return &stream.Checkpoint{Store: o.Base.Store, Prefix: o.Base.Prefix + "keyed/p" + strconv.Itoa(p) + "/"}
}

// rangeRec is offsets/N's source: the subject sequences (From, To].
type rangeRec struct {
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
	// Horizon is the file queue's ack floor read before To (once the
	// backfill is committed): at the end of the epoch the files tagged
	// at or below it are forgotten.
	Horizon uint64 `json:"horizon,omitempty"`
}

// stateHeader leads state/N/partition, before the window snapshot. Tags
// runs beside Files (absent in states written before tags: 0, kept).
type stateHeader struct {
	// Stamp is the state's format version (formatver.KeyedState).
	formatver.Stamp
	Files   map[int64][]int64  `json:"files"`
	Tags    map[int64][]uint64 `json:"tags,omitempty"`
	Horizon uint64             `json:"horizon,omitempty"`
}

const stateID = "partition"

// restore loads partition p's last commit and positions its consumer
// after the committed sequence.
func (o *Owner) restore(ctx context.Context, p int, gen uint64) (*ownedPart, error) {
	cp := o.partCheckpoint(p)
	agg, err := o.Template.Fresh()
	if err != nil {
		return nil, err
	}
	part := &ownedPart{id: p, gen: gen, cp: cp, agg: agg, files: map[int64]map[int64]uint64{}, wm: math.MinInt64}
	last, err := cp.Last(ctx, "commits")
	if err != nil {
		return nil, err
	}
	if last >= 0 {
		off, err := cp.ReadOffset(ctx, last)
		if err != nil {
			return nil, fmt.Errorf("reading offsets/%d: %w", last, err)
		}
		var rr rangeRec
		if err := json.Unmarshal(off.Source, &rr); err != nil {
			return nil, fmt.Errorf("offsets/%d: %w", last, err)
		}
		part.seq, part.wm = rr.To, off.Watermark
		r, err := cp.Store.Open(ctx, cp.StateKey(last, stateID))
		if err != nil {
			return nil, fmt.Errorf("reading state of epoch %d: %w", last, err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return nil, err
		}
		if err := part.decodeState(data, cp.Store.String()+"/"+cp.StateKey(last, stateID)); err != nil {
			return nil, fmt.Errorf("state of epoch %d: %w", last, err)
		}
	}
	part.next = last + 1
	part.ids = part.fileIDs()
	part.in = o.partials().Reader(p, part.seq+1)
	return part, nil
}

func (part *ownedPart) encodeState() ([]byte, error) {
	h := stateHeader{Stamp: formatver.KeyedState.Stamp(), Files: map[int64][]int64{}, Tags: map[int64][]uint64{}, Horizon: part.horizon}
	for s, fs := range part.files {
		ids := make([]int64, 0, len(fs))
		for f := range fs {
			ids = append(ids, f)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		tags := make([]uint64, len(ids))
		for i, f := range ids {
			tags[i] = fs[f]
		}
		h.Files[s], h.Tags[s] = ids, tags
	}
	js, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	_ = binary.Write(&buf, binary.LittleEndian, int64(len(js)))
	buf.Write(js)
	if err := part.agg.Snapshot(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeState restores the state in data, read from file.
func (part *ownedPart) decodeState(data []byte, file string) error {
	r := bytes.NewReader(data)
	var n int64
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil || n < 0 || n > int64(len(data)) {
		return errors.New("corrupt partition state")
	}
	js := make([]byte, n)
	if _, err := io.ReadFull(r, js); err != nil {
		return err
	}
	var h stateHeader
	if err := json.Unmarshal(js, &h); err != nil {
		return err
	}
	if err := formatver.KeyedState.Check(file, h.Stamp); err != nil {
		return err
	}
	part.horizon = h.Horizon
	for s, fs := range h.Files {
		tags := h.Tags[s]
		part.files[s] = make(map[int64]uint64, len(fs))
		for i, f := range fs {
			var tag uint64
			if i < len(tags) {
				tag = tags[i]
			}
			part.files[s][f] = tag
		}
	}
	return part.agg.Restore(r)
}

// epoch plans (or replays) partition part's next epoch and runs it.
func (o *Owner) epoch(ctx context.Context, part *ownedPart, wm int64) error {
	cp := part.cp
	n := part.next
	rec, err := cp.ReadOffset(ctx, n)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("reading offsets/%d: %w", n, err)
	}
	if err != nil {
		to := part.seq
		last, err := o.partials().Last(ctx, part.id)
		switch {
		case err != nil:
			return fmt.Errorf("reading the partition's last sequence: %w", err)
		case last > to:
			to = last
		}
		if wm < part.wm {
			wm = part.wm
		}
		if to == part.seq && !closes(part.agg, wm) && !part.canForget(o.floor) {
			return nil
		}
		src, _ := json.Marshal(rangeRec{From: part.seq, To: to, Horizon: max(part.horizon, o.floor)})
		rec = &stream.OffsetRecord{Epoch: n, Source: src, Watermark: wm, Time: time.Now().UnixMicro()}
		if err := cp.WriteOffset(ctx, rec); err != nil {
			if !errors.Is(err, stream.ErrConcurrentWriter) {
				return err
			}
			// Another owner planned N first: replay its plan.
			if rec, err = cp.ReadOffset(ctx, n); err != nil {
				return fmt.Errorf("reading offsets/%d: %w", n, err)
			}
		}
	}
	var rr rangeRec
	if err := json.Unmarshal(rec.Source, &rr); err != nil {
		return fmt.Errorf("offsets/%d: %w", n, err)
	}
	if rr.From != part.seq {
		return fmt.Errorf("offsets/%d starts after sequence %d, the state is at %d", n, rr.From, part.seq)
	}
	folded, late, dups, err := o.fold(ctx, part, rr.To)
	if err != nil {
		return err
	}
	forgotten := part.forget(rr.Horizon)
	var rows []arrow.RecordBatch
	defer func() {
		for _, b := range rows {
			b.Release()
		}
	}()
	collect := exec.OutputFunc(func(_ context.Context, m exec.Message) error {
		if !m.IsWatermark() && m.Batch.NumRows() > 0 {
			m.Batch.Retain()
			rows = append(rows, m.Batch)
		}
		return nil
	})
	if part.agg.Mode() == exec.Update {
		// The groups of windows a partial changed, as of this epoch (a
		// replay restores the state before it: the same rows again).
		if err := part.agg.EndEpoch(ctx, chain(o.Above, collect)); err != nil {
			return fmt.Errorf("writing changed groups: %w", err)
		}
	}
	if rec.Watermark > part.wm {
		if err := part.agg.OnWatermark(ctx, rec.Watermark, chain(o.Above, collect)); err != nil {
			return fmt.Errorf("closing windows: %w", err)
		}
		open := map[int64]bool{}
		for _, w := range part.agg.OpenWindowEnds() {
			open[w[0]] = true
		}
		for s := range part.files {
			if !open[s] {
				delete(part.files, s)
			}
		}
	}
	var out int64
	if len(rows) > 0 {
		if err := o.members().Check(ctx, part.id, part.gen); err != nil {
			return fmt.Errorf("epoch %d: %w", n, err)
		}
		id := int64(xxhash.Sum64String(fmt.Sprintf("keyed\x00%s\x00%d\x00%d", o.Stream, part.id, n)) >> 2)
		if b, ok := o.Sink.(connector.EpochBeginner); ok {
			if err := b.BeginEpoch(ctx, id); err != nil {
				return fmt.Errorf("starting sink epoch: %w", err)
			}
		}
		for _, b := range rows {
			out += b.NumRows()
			if err := o.Sink.Write(ctx, b); err != nil {
				return fmt.Errorf("writing closed windows: %w", err)
			}
		}
		if err := o.Sink.Flush(ctx, id); err != nil {
			return fmt.Errorf("flushing sink: %w", err)
		}
	}
	state, err := part.encodeState()
	if err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	if err := cp.Store.Put(ctx, cp.StateKey(n, stateID), bytes.NewReader(state), false); err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	if gen, ok := o.members().Holds(part.id); !ok || gen != part.gen {
		return fmt.Errorf("epoch %d: lease lost before the commit", n)
	}
	if err := o.members().Check(ctx, part.id, part.gen); err != nil {
		return fmt.Errorf("epoch %d: %w", n, err)
	}
	commit := &stream.CommitRecord{Epoch: n, RowsIn: folded, RowsOut: out, Late: late,
		NextWatermark: rec.Watermark, Time: time.Now().UnixMicro()}
	if err := cp.WriteCommit(ctx, commit); err != nil {
		return err
	}
	part.wm = rec.Watermark
	part.next = n + 1
	o.mu.Lock()
	o.stats.Epochs++
	o.stats.Partials += folded
	o.stats.Late += late
	o.stats.Duplicates += dups
	o.stats.RowsOut += out
	o.stats.Forgotten += forgotten
	part.ids = part.fileIDs()
	o.mu.Unlock()
	if n%20 == 0 {
		// Only the last commit is ever restored: older checkpoint files
		// and the partials folded into it are not needed again.
		_ = cp.Purge(ctx, n, 10)
		o.partials().Trim(ctx, part.id, rr.To+1)
	}
	return nil
}

// partials, members and watermarks are the transport's (transport.go):
// JetStream's unless DialKafka set Kafka's.
func (o *Owner) partials() partialLog {
	if o.plog != nil {
		return o.plog
	}
	return natsLog{st: o.PStream, stream: o.Stream}
}

func (o *Owner) members() membership {
	if o.group != nil {
		return o.group
	}
	return o.Leases
}

func (o *Owner) watermarks() watermarker {
	if o.marks != nil {
		return o.marks
	}
	return o.Tracker
}

// closes reports whether watermark wm closes an open window.
func closes(agg *exec.WindowAggregate, wm int64) bool {
	for _, w := range agg.OpenWindowEnds() {
		if w[1] <= wm {
			return true
		}
	}
	return false
}

// fold merges the partition's partials up to subject sequence to.
func (o *Owner) fold(ctx context.Context, part *ownedPart, to uint64) (folded, late, dups int64, err error) {
	for part.seq < to {
		if len(part.held) == 0 {
			msgs, err := part.in.fetchWait(ctx, 256, 2*time.Second)
			if err != nil {
				return 0, 0, 0, fmt.Errorf("reading partials: %w", err)
			}
			part.held = msgs
			if len(part.held) == 0 {
				return 0, 0, 0, fmt.Errorf("reading partials: nothing delivered after sequence %d, want up to %d", part.seq, to)
			}
		}
		m := part.held[0]
		seq := m.Seq
		if seq > to {
			break
		}
		part.held = part.held[1:]
		if seq <= part.seq {
			continue
		}
		var pm partialMsg
		if err := json.Unmarshal(m.Data, &pm); err != nil {
			return 0, 0, 0, fmt.Errorf("partial at sequence %d: %w", seq, err)
		}
		tag := fileTag(pm)
		for _, pw := range pm.Partials {
			if pm.QSeq != 0 && pm.QSeq <= part.horizon {
				// Its message was acknowledged, so some reading of the
				// file stored its partials, all folded: a duplicate of
				// a file already forgotten (or about to be).
				dups++
				continue
			}
			if old, ok := part.files[pw.Start][pm.File]; ok {
				part.files[pw.Start][pm.File] = mergeTags(old, tag)
				dups++
				continue
			}
			ok, err := part.agg.MergePartialState(ctx, pw.Start, pw.End, pw.State, part.wm)
			if err != nil {
				return 0, 0, 0, fmt.Errorf("partial at sequence %d: %w", seq, err)
			}
			if !ok {
				late++
				continue
			}
			if part.files[pw.Start] == nil {
				part.files[pw.Start] = map[int64]uint64{}
			}
			part.files[pw.Start][pm.File] = tag
			folded++
		}
		part.seq = seq
	}
	if part.seq < to {
		// Sequences up to to hold no message of this subject any more
		// (none can appear later below the last one read).
		part.seq = to
	}
	return folded, late, dups, nil
}

// fileTag is what a folded file is remembered by: its largest queue
// sequence, or 0 (kept for good) for a file of the first listing or one
// whose messages are unknown.
func fileTag(pm partialMsg) uint64 {
	if pm.Listed {
		return 0
	}
	return pm.QSeq
}

// mergeTags is the tag of a file seen under two tags: kept for good if
// either is 0, else until the later message is acknowledged.
func mergeTags(a, b uint64) uint64 {
	if a == 0 || b == 0 {
		return 0
	}
	return max(a, b)
}

// forget raises the horizon to h and drops the file ids tagged at or
// below it: every message that named them is acknowledged, so every
// partial of theirs that is not a duplicate is folded already, and a
// duplicate yet to come carries a tag at or below the horizon. It
// returns how many were dropped.
func (part *ownedPart) forget(h uint64) int64 {
	if h <= part.horizon {
		return 0
	}
	part.horizon = h
	var n int64
	for s, fs := range part.files {
		for f, tag := range fs {
			if tag != 0 && tag <= h {
				delete(fs, f)
				n++
			}
		}
		if len(fs) == 0 {
			delete(part.files, s)
		}
	}
	return n
}

// canForget reports whether horizon h would forget a file id.
func (part *ownedPart) canForget(h uint64) bool {
	if h <= part.horizon {
		return false
	}
	for _, fs := range part.files {
		for _, tag := range fs {
			if tag != 0 && tag <= h {
				return true
			}
		}
	}
	return false
}

// fileIDs is how many file ids the partition remembers.
func (part *ownedPart) fileIDs() int64 {
	var n int64
	for _, fs := range part.files {
		n += int64(len(fs))
	}
	return n
}

// chain pushes messages through ops into tail, as the driver does for a
// stage: batches through Process, watermarks through OnWatermark.
func chain(ops []exec.Operator, tail exec.Output) exec.Output {
	if len(ops) == 0 {
		return tail
	}
	next := chain(ops[1:], tail)
	op := ops[0]
	return exec.OutputFunc(func(ctx context.Context, m exec.Message) error {
		if m.IsWatermark() {
			return op.OnWatermark(ctx, m.Watermark, next)
		}
		return op.Process(ctx, m.Batch, next)
	})
}

// FormatOwners renders partition owners as "worker: 0,3,5; worker2: ...".
func FormatOwners(owners map[int]Holder) string {
	by := map[string][]int{}
	for p, w := range owners {
		by[w.Worker] = append(by[w.Worker], p)
	}
	names := make([]string, 0, len(by))
	for w := range by {
		names = append(names, w)
	}
	sort.Strings(names)
	var parts []string
	for _, w := range names {
		ps := by[w]
		sort.Ints(ps)
		parts = append(parts, w+": "+FormatParts(ps))
	}
	return strings.Join(parts, "; ")
}

// FormatParts renders partition numbers comma-separated.
func FormatParts(ps []int) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ",")
}
