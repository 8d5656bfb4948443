package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/storage"
)

// Sink writes rows as documents through the bulk API.
type Sink struct {
	spec   connector.TableSpec
	o      Options
	prefix string
	cl     *client
	enc    *Encoder
	bulk   *bulker
	batch  bool // connector.SinkOptions.Batch: refresh after the last flush

	mu      sync.Mutex
	ensured map[string]bool
	epoch   int64
	closed  bool
}

var (
	_ connector.Sink          = (*Sink)(nil)
	_ connector.EpochBeginner = (*Sink)(nil)
	_ connector.Describer     = (*Sink)(nil)
)

// NewSink opens an opensearch table for writing. Nothing is sent until
// the first Write; the index is created then if missing.
func NewSink(ctx context.Context, spec connector.TableSpec, opts connector.SinkOptions) (*Sink, error) {
	o, err := ParseOptions(spec.Options)
	if err != nil {
		return nil, err
	}
	if spec.Schema == nil {
		return nil, fmt.Errorf("opensearch table %s has no schema", spec.Name)
	}
	enc, err := NewEncoder(spec.Schema, o.ID, o.Routing, o.Index)
	if err != nil {
		return nil, err
	}
	enc.SetWrite(opts.WriteID)
	if opts.GroupIDs {
		enc.SetGroupKeys()
	}
	cl, err := newClient(ctx, o)
	if err != nil {
		return nil, err
	}
	prefix := opts.FilePrefix
	if prefix == "" {
		prefix = spec.Name
	}
	return &Sink{spec: spec, o: o, prefix: prefix, cl: cl, enc: enc, bulk: newBulker(cl, o), ensured: map[string]bool{}, batch: opts.Batch}, nil
}

// Schema is the table's schema.
func (s *Sink) Schema() *arrow.Schema { return s.spec.Schema }

// BeginEpoch restarts the default id sequence for a (re)played epoch.
func (s *Sink) BeginEpoch(_ context.Context, epoch int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epoch = epoch
	s.enc.BeginEpoch(epoch)
	return nil
}

// Write queues the batch's rows; it blocks while the cluster is behind.
func (s *Sink) Write(ctx context.Context, batch arrow.RecordBatch) error {
	s.mu.Lock()
	docs, err := s.enc.Encode(batch)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	ok := docs[:0]
	ensured := false
	var last string // the index last ensured
	for _, d := range docs {
		if d.Err != nil {
			s.bulk.deadLetter(d, 0, d.Err.Error())
			continue
		}
		// Rows of a batch mostly go to one index: ask again only when
		// the name changes.
		if !ensured || d.Index != last {
			if err := s.ensureIndex(ctx, d.Index); err != nil {
				return err
			}
			ensured, last = true, d.Index
		}
		ok = append(ok, d)
	}
	return s.bulk.add(ctx, ok)
}

// Flush waits for every document of the epoch and writes the dead
// letters. Rejected documents without a dead_letter_location are an
// error: nothing is dropped silently.
func (s *Sink) Flush(ctx context.Context, epoch int64) error {
	if err := s.bulk.flush(ctx); err != nil {
		return err
	}
	dead := s.bulk.takeDead()
	if len(dead) == 0 {
		return s.refreshWritten(ctx)
	}
	if s.o.DeadLetter == "" {
		return fmt.Errorf("%d documents were rejected by OpenSearch (first: %s); set dead_letter_location to keep them", len(dead), firstReason(dead[0]))
	}
	if err := writeDeadLetters(ctx, s.o.DeadLetter, fmt.Sprintf("%s-%d", s.prefix, epoch), dead); err != nil {
		return err
	}
	return s.refreshWritten(ctx)
}

// writeDeadLetters puts the records as one JSON-lines object under loc.
func writeDeadLetters(ctx context.Context, loc, name string, lines [][]byte) error {
	st, key, err := storage.Resolve(ctx, loc, storage.Options{})
	if err != nil {
		return fmt.Errorf("dead_letter_location: %w", err)
	}
	if key != "" && !strings.HasSuffix(key, "/") {
		key += "/"
	}
	key += "dead-letter-" + name + ".jsonl"
	if err := st.Put(ctx, key, bytes.NewReader(bytes.Join(lines, nil)), false); err != nil {
		return fmt.Errorf("writing dead letters to %s: %w", loc, err)
	}
	return nil
}

func firstReason(line []byte) string {
	var rec struct {
		Reason json.RawMessage `json:"reason"`
	}
	_ = json.Unmarshal(line, &rec)
	r := string(rec.Reason)
	if len(r) > 300 {
		r = r[:300] + "..."
	}
	return r
}

// Stats reports what was written so far.
func (s *Sink) Stats() Stats {
	bytes, inflight := s.bulk.sz.state()
	return Stats{Indexed: s.bulk.indexed.Load(), DeadLettered: s.bulk.deadN.Load(),
		Retries: s.bulk.retries.Load(), Requests: s.bulk.requests.Load(),
		Refused: s.bulk.refusedDocs.Load(), Refusals: s.bulk.refusals.Load(), RefusedRequests: s.bulk.refusedReqs.Load(),
		BulkBytes: bytes, InFlight: inflight}
}

// SinkStats implements connector.SinkStats: bulk requests retried and
// documents dead-lettered since the sink opened.
func (s *Sink) SinkStats() (retries, deadLetters int64) {
	return s.bulk.retries.Load(), s.bulk.deadN.Load()
}

var _ connector.SinkStats = (*Sink)(nil)

// Describe is for EXPLAIN; it never shows credentials.
func (s *Sink) Describe() string {
	return fmt.Sprintf("opensearch index=%s action=%s endpoints=%d", s.o.Index, s.o.Action, len(s.o.Endpoints))
}

// Close stops the bulk workers; call Flush first.
func (s *Sink) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.bulk.close()
	return s.cl.Close()
}

// ensureIndex creates a missing index with the table's mappings, or with
// index_settings / index_mappings when given.
func (s *Sink) ensureIndex(ctx context.Context, name string) error {
	s.mu.Lock()
	done := s.ensured[name]
	s.mu.Unlock()
	if done {
		return nil
	}
	err := ensureIndex(ctx, s.cl, s.o, name, s.spec.Schema)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.ensured[name] = true
	s.mu.Unlock()
	return nil
}

func ensureIndex(ctx context.Context, cl *client, o Options, name string, schema *arrow.Schema) error {
	path := "/" + url.PathEscape(name)
	create, err := indexBody(o, schema)
	if err != nil {
		return err
	}
	return withRetry(ctx, o, "creating index "+name, func() (bool, error) {
		st, body, err := cl.do(ctx, http.MethodHead, path, nil)
		if err != nil {
			return true, err
		}
		if st == http.StatusOK {
			return addMissingFields(ctx, cl, o, name, schema)
		}
		if st != http.StatusNotFound {
			return retryable(st), statusErr("checking index", st, body)
		}
		st, body, err = cl.do(ctx, http.MethodPut, path, create)
		if err != nil {
			return true, err
		}
		if st < 300 || bytes.Contains(body, []byte("resource_already_exists_exception")) {
			return false, nil
		}
		return retryable(st), statusErr("creating index", st, body)
	})
}

func indexBody(o Options, schema *arrow.Schema) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"mappings":`)
	settings := []byte(o.IndexSettings)
	if o.IndexMappings != "" {
		b.WriteString(o.IndexMappings)
	} else {
		b.Write(MappingsJSON(schema, o.TextFields))
		if len(o.TextFields) > 0 {
			var err error
			if settings, err = withAnalyzer(o.IndexSettings); err != nil {
				return nil, fmt.Errorf("option index_settings: %w", err)
			}
		}
	}
	if len(settings) > 0 {
		b.WriteString(`,"settings":`)
		b.Write(settings)
	}
	b.WriteString("}")
	return b.Bytes(), nil
}
