package index

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/blevesearch/bleve/v2"
	bleveidx "github.com/blevesearch/bleve_index_api"

	"sluice/internal/connector"
	"sluice/internal/connector/opensearch"
)

// Sink writes rows as documents into the local index. A Write is one
// Bleve batch; ids follow the OpenSearch connector (docid: id columns,
// or a hash of the write and epoch that replays identically), so a
// replayed epoch overwrites and separate INSERTs add.
type Sink struct {
	spec connector.TableSpec
	o    Options
	sh   *shared
	enc  *opensearch.Encoder
	n    int64
}

var (
	_ connector.Sink          = (*Sink)(nil)
	_ connector.EpochBeginner = (*Sink)(nil)
	_ connector.Describer     = (*Sink)(nil)
)

// NewSink opens (creating if needed) the table's index for writing.
func NewSink(ctx context.Context, spec connector.TableSpec, sopts connector.SinkOptions) (*Sink, error) {
	o, err := ParseOptions(spec)
	if err != nil {
		return nil, err
	}
	if spec.Schema == nil {
		return nil, fmt.Errorf("index table %s has no schema", spec.Name)
	}
	enc, err := opensearch.NewEncoder(spec.Schema, o.ID, "", "")
	if err != nil {
		return nil, err
	}
	enc.SetWrite(sopts.WriteID)
	if sopts.GroupIDs {
		enc.SetGroupKeys()
	}
	sh, err := acquire(ctx, o.Path, spec.Schema, o.TextFields, true)
	if err != nil {
		return nil, err
	}
	return &Sink{spec: spec, o: o, sh: sh, enc: enc}, nil
}

// Schema is the table's schema.
func (s *Sink) Schema() *arrow.Schema { return s.spec.Schema }

// BeginEpoch restarts the default id sequence for a (re)played epoch.
func (s *Sink) BeginEpoch(_ context.Context, epoch int64) error {
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	s.enc.BeginEpoch(epoch)
	return nil
}

// Write indexes the batch's rows as one Bleve batch.
func (s *Sink) Write(_ context.Context, batch arrow.RecordBatch) error {
	s.sh.mu.Lock()
	defer s.sh.mu.Unlock()
	docs, err := s.enc.Encode(batch)
	if err != nil {
		return err
	}
	b := s.sh.idx.NewBatch()
	for _, d := range docs {
		src := d.Source
		switch s.o.Action {
		case "create":
			if old, err := stored(s.sh.idx, d.ID); err != nil {
				return err
			} else if old != nil {
				continue
			}
		case "upsert":
			old, err := stored(s.sh.idx, d.ID)
			if err != nil {
				return err
			}
			if old != nil {
				if src, err = merge(old, src); err != nil {
					return fmt.Errorf("upserting %s: %w", d.ID, err)
				}
			}
		}
		var fields map[string]any
		if err := json.Unmarshal(src, &fields); err != nil {
			return fmt.Errorf("indexing %s: %w", d.ID, err)
		}
		fields[SourceField] = string(src)
		if err := b.Index(d.ID, fields); err != nil {
			return fmt.Errorf("indexing %s: %w", d.ID, err)
		}
		s.n++
	}
	if err := s.sh.idx.Batch(b); err != nil {
		return fmt.Errorf("writing index %s: %w", s.o.Path, err)
	}
	return nil
}

// stored returns a document's _source, or nil when there is none.
func stored(idx bleve.Index, id string) ([]byte, error) {
	doc, err := idx.Document(id)
	if err != nil {
		return nil, fmt.Errorf("reading document %s: %w", id, err)
	}
	if doc == nil {
		return nil, nil
	}
	var out []byte
	doc.VisitFields(func(f bleveidx.Field) {
		if f.Name() == SourceField {
			out = append([]byte(nil), f.Value()...)
		}
	})
	return out, nil
}

// merge is OpenSearch's doc_as_upsert: the new fields over the old.
func merge(old, upd []byte) ([]byte, error) {
	var a, b map[string]json.RawMessage
	if err := json.Unmarshal(old, &a); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(upd, &b); err != nil {
		return nil, err
	}
	for k, v := range b {
		a[k] = v
	}
	return json.Marshal(a)
}

// Flush: every Write is already a committed Bleve batch.
func (s *Sink) Flush(context.Context, int64) error { return nil }

// Close releases the index.
func (s *Sink) Close() error {
	if s.sh == nil {
		return nil
	}
	s.sh = nil
	return release(s.o.Path)
}

// Describe is for EXPLAIN.
func (s *Sink) Describe() string {
	return fmt.Sprintf("local index path=%s action=%s", s.o.Path, s.o.Action)
}
