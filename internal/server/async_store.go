package server

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"sluice/internal/formatver"
)

// Async query statuses, spelled as the OpenSearch SQL plugin spells them.
const (
	asyncWaiting   = "WAITING"
	asyncRunning   = "RUNNING"
	asyncSuccess   = "SUCCESS"
	asyncFailed    = "FAILED"
	asyncCancelled = "CANCELLED"
)

// DefaultQueryRetention is how long a finished async query's status and
// result are kept.
const DefaultQueryRetention = 24 * time.Hour

// asyncRecord is one async query as kept in <data dir>/queries/<id>.json.
type asyncRecord struct {
	ID         string `json:"queryId"`
	SessionID  string `json:"sessionId"`
	Datasource string `json:"datasource,omitempty"`
	Lang       string `json:"lang"`
	// Owner is who submitted it (the principal's name, with
	// authentication on): other non-admin callers cannot see it.
	Owner string `json:"owner,omitempty"`
	// Statement is the statement as the engine prints it (secrets as ***).
	Statement string `json:"statement"`
	// Stream, for a streaming statement, is what it runs: a stream's name
	// (StreamKind "stream") or a materialized view's ("view"). Its status
	// follows the stream's while it runs.
	Stream     string    `json:"stream,omitempty"`
	StreamKind string    `json:"stream_kind,omitempty"`
	Status     string    `json:"status"`
	Error      string    `json:"error,omitempty"`
	Message    string    `json:"message,omitempty"`
	Rows       int       `json:"rows,omitempty"`
	HasResult  bool      `json:"has_result,omitempty"`
	Submitted  time.Time `json:"submitted"`
	Finished   time.Time `json:"finished,omitzero"`
}

// storedRecord is an asyncRecord as its file holds it, with its format
// version (formatver.AsyncQuery), which the API's answers do not show.
type storedRecord struct {
	formatver.Stamp
	asyncRecord
}

func (r *asyncRecord) finished() bool {
	return r.Status == asyncSuccess || r.Status == asyncFailed || r.Status == asyncCancelled
}

// asyncStore keeps async queries in memory and on disk: one JSON file
// per query and, for a statement with rows, its result as an Arrow IPC
// stream with zstd-compressed buffers (<id>.arrow). Every file is
// written to a temporary name, synced and renamed, so a crash leaves the
// old version or the new one, never half of one.
type asyncStore struct {
	dir       string
	retention time.Duration
	log       *slog.Logger

	mu   sync.Mutex
	recs map[string]*asyncRecord
}

// openAsyncStore loads the queries kept in dir, drops the expired ones
// and the temporary files of interrupted writes.
func openAsyncStore(dir string, retention time.Duration, log *slog.Logger) (*asyncStore, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("async queries: %w", err)
	}
	a := &asyncStore{dir: dir, retention: retention, log: log, recs: map[string]*asyncRecord{}}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("async queries: %w", err)
	}
	for _, e := range ents {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, ".tmp-"):
			_ = os.Remove(filepath.Join(dir, name))
		case strings.HasSuffix(name, ".json"):
			raw, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				return nil, fmt.Errorf("async queries: %w", err)
			}
			var sr storedRecord
			err = json.Unmarshal(raw, &sr)
			if err == nil {
				// A newer record may mean something this binary cannot
				// tell: refuse it rather than serve it as it reads.
				if err := formatver.AsyncQuery.Check(filepath.Join(dir, name), sr.Stamp); err != nil {
					return nil, fmt.Errorf("async queries: %w", err)
				}
			}
			r := sr.asyncRecord
			if err != nil || !validQueryID(r.ID) || r.ID+".json" != name {
				log.Warn("ignoring a corrupt async query record", "file", name)
				continue
			}
			a.recs[r.ID] = &r
		}
	}
	a.sweep(time.Now())
	return a, nil
}

// newQueryID is 16 random lowercase letters and digits, like the
// plugin's ids, and safe as a file name.
func newQueryID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

func validQueryID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// get returns a copy of a query's record.
func (a *asyncStore) get(id string) (asyncRecord, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r, ok := a.recs[id]
	if !ok {
		return asyncRecord{}, false
	}
	return *r, true
}

// all returns copies of every record.
func (a *asyncStore) all() []asyncRecord {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]asyncRecord, 0, len(a.recs))
	for _, r := range a.recs {
		out = append(out, *r)
	}
	return out
}

func (a *asyncStore) counts() map[string]int {
	out := map[string]int{}
	for _, st := range []string{asyncWaiting, asyncRunning, asyncSuccess, asyncFailed, asyncCancelled} {
		out[st] = 0
	}
	for _, r := range a.all() {
		out[r.Status]++
	}
	return out
}

// put records r (a new query or a new status) and writes it. Writes are
// serialized under mu so that the file on disk is always the newest.
func (a *asyncStore) put(r asyncRecord) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.putLocked(r)
}

func (a *asyncStore) putLocked(r asyncRecord) error {
	if old, ok := a.recs[r.ID]; ok && old.finished() {
		return nil // a finished query stays as it finished
	}
	c := r
	a.recs[r.ID] = &c
	raw, _ := json.MarshalIndent(storedRecord{Stamp: formatver.AsyncQuery.Stamp(), asyncRecord: r}, "", "  ")
	return a.writeFile(r.ID+".json", func(w io.Writer) error { _, err := w.Write(raw); return err })
}

// update applies fn to the record of id when it has not finished yet, and
// writes it; false when there was nothing to update.
func (a *asyncStore) update(id string, fn func(r *asyncRecord)) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	old, ok := a.recs[id]
	if !ok || old.finished() {
		return false, nil
	}
	r := *old
	fn(&r)
	return true, a.putLocked(r)
}

// readResult reads a query's rows back.
func (a *asyncStore) readResult(id string) (*result, error) {
	raw, err := os.ReadFile(filepath.Join(a.dir, id+".arrow"))
	if err != nil {
		return nil, fmt.Errorf("reading the result of query %s: %w", id, err)
	}
	rd, err := ipc.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("reading the result of query %s: %w", id, err)
	}
	defer rd.Release()
	res := &result{schema: rd.Schema()}
	for rd.Next() {
		b := rd.RecordBatch()
		b.Retain()
		res.batches = append(res.batches, b)
		res.total += int(b.NumRows())
	}
	if err := rd.Err(); err != nil {
		return nil, fmt.Errorf("reading the result of query %s: %w", id, err)
	}
	return res, nil
}

func (a *asyncStore) writeFile(name string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(a.dir, ".tmp-"+name+"-")
	if err != nil {
		return fmt.Errorf("writing async query %s: %w", name, err)
	}
	tmp := f.Name()
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(a.dir, name))
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("writing async query %s: %w", name, err)
	}
	if d, err := os.Open(a.dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// sweep forgets the queries that finished more than the retention ago,
// and their files; it returns how many. A retention of 0 keeps them all.
func (a *asyncStore) sweep(now time.Time) int {
	if a.retention <= 0 {
		return 0
	}
	a.mu.Lock()
	var gone []string
	for id, r := range a.recs {
		if r.finished() && !r.Finished.IsZero() && now.Sub(r.Finished) > a.retention {
			gone = append(gone, id)
			delete(a.recs, id)
		}
	}
	a.mu.Unlock()
	for _, id := range gone {
		// The result first: a record on disk always has its result.
		for _, f := range []string{id + ".arrow", id + ".json"} {
			if err := os.Remove(filepath.Join(a.dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
				a.log.Warn("removing an expired async query", "query", id, "error", err.Error())
			}
		}
	}
	if len(gone) > 0 {
		a.log.Info("expired async queries", "count", len(gone), "retention", a.retention.String())
	}
	return len(gone)
}
