package opensearch

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cespare/xxhash/v2"

	"sluice/internal/docid"
	"sluice/internal/format"
	"sluice/internal/types"
)

// Doc is one row as a search document.
type Doc struct {
	ID      string
	Index   string // empty for the local index
	Routing string
	Source  []byte // a JSON object: the row, NULL fields left out
	Err     error  // set: the row cannot be indexed (it is dead-lettered)
}

// Encoder turns batches into documents with deterministic ids, all made
// by package docid.
//
// With id columns, a document's id is their values' docid.Key. Without,
// it is a docid.Rows id of the write, the epoch, the row's JSON and how
// many identical rows came before it in the epoch: the same input
// replayed (in any order) gives the same ids, so a replay overwrites,
// while two identical rows stay two documents. The count per distinct row
// is what the encoder remembers within an epoch (12 bytes a row).
type Encoder struct {
	schema   *arrow.Schema
	idCols   []int
	keyNulls bool // a NULL id column is a key's value (SetGroupKeys)
	routing  int
	index    *resolver
	epoch    int64
	seen     rowCounts
	rowIDs   docid.Rows

	rows     format.JSONRows
	rowBytes int      // about a source's size in the last batch
	ends     []int    // scratch: where each row's record ends
	hashed   []int    // scratch: rows given a content-hash id
	hs       []uint64 // scratch: their sources' hashes
	counts   []uint32 // scratch: their counts before them
}

// NewEncoder binds id columns, a routing column ("" for none) and an index
// pattern ("" for none) to schema.
func NewEncoder(schema *arrow.Schema, idCols []string, routing, index string) (*Encoder, error) {
	e := &Encoder{schema: schema, routing: -1}
	for _, c := range idCols {
		i := fieldIndex(schema, c)
		if i < 0 {
			return nil, fmt.Errorf("option id: no column %s in %s", c, schemaNames(schema))
		}
		e.idCols = append(e.idCols, i)
	}
	if routing != "" {
		if e.routing = fieldIndex(schema, routing); e.routing < 0 {
			return nil, fmt.Errorf("option routing: no column %s in %s", routing, schemaNames(schema))
		}
	}
	if index != "" {
		p, err := parseIndexPattern(index)
		if err != nil {
			return nil, err
		}
		if e.index, err = p.bind(schema); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// SetWrite names the write the following epochs belong to (a batch
// INSERT's query id, a stream's checkpoint id), so that rows without an
// id written by another write under the same epoch number stay
// documents of their own. "" (connector.SinkOptions.WriteID) keeps the
// ids of before.
func (e *Encoder) SetWrite(write string) {
	e.rowIDs = e.rowIDs.WithWrite(write)
}

// SetGroupKeys says the id columns carry GROUP BY keys: a NULL among
// them is the NULL group's value, named like any other, rather than a
// row without an id (which gets a row id, as SQL keys never match NULL).
func (e *Encoder) SetGroupKeys() { e.keyNulls = true }

// BeginEpoch starts the id sequence of an epoch afresh.
func (e *Encoder) BeginEpoch(epoch int64) {
	e.epoch = epoch
	e.seen.reset()
}

// Encode returns one document per row of batch.
func (e *Encoder) Encode(batch arrow.RecordBatch) ([]Doc, error) {
	n := int(batch.NumRows())
	e.rows.Bind(batch)
	// One buffer for the whole batch, sized from the last one; documents
	// are slices of it. Each source is preceded by seqLen bytes that the
	// id hash fills with the epoch, the row's count and the write, so
	// both hashes run over contiguous bytes.
	seqLen := e.rowIDs.PrefixLen()
	all := make([]byte, 0, n*(e.rowBytes+seqLen)+256)
	ends := e.ends[:0]
	for row := 0; row < n; row++ {
		all = append(all, make([]byte, seqLen)...)
		all = e.rows.AppendRow(all, row)
		ends = append(ends, len(all))
	}
	e.ends = ends
	if n > 0 {
		e.rowBytes = len(all)/n - seqLen + 1
	}
	docs := make([]Doc, n)
	hashed, hs := e.hashed[:0], e.hs[:0]
	start := 0
	for row := 0; row < n; row++ {
		src := all[start+seqLen : ends[row] : ends[row]]
		d := Doc{Source: src}
		if len(e.idCols) > 0 {
			d.ID = e.idOf(batch, row)
		}
		if d.ID == "" { // no id columns, or a NULL among them
			hashed, hs = append(hashed, row), append(hs, xxhash.Sum64(src))
		}
		if e.routing >= 0 && !types.IsNull(batch.Column(e.routing), row) {
			d.Routing = types.FormatValue(batch.Column(e.routing), row)
		}
		if e.index != nil {
			d.Index, d.Err = e.index.name(batch, row)
		}
		docs[row] = d
		start = ends[row]
	}
	e.hashed, e.hs = hashed, hs
	if len(hashed) > 0 {
		e.hashIDs(docs, all, seqLen)
	}
	return docs, nil
}

// hashIDs gives the rows in e.hashed, whose sources hash to e.hs, their
// docid.Rows ids: the write, the epoch, how many identical sources came
// before in the epoch and the source (all holds each source after
// seqLen bytes for the rest).
func (e *Encoder) hashIDs(docs []Doc, all []byte, seqLen int) {
	// The counts first, in a loop of their own: the table is too big
	// for the cache, and lookups that do not wait on one another
	// overlap their misses.
	counts := slices.Grow(e.counts[:0], len(e.hs))[:len(e.hs)]
	for k, h := range e.hs {
		counts[k] = e.seen.next(h)
	}
	e.counts = counts
	const idLen = docid.IDLen
	ids := make([]byte, 0, len(e.hs)*idLen)
	for k, row := range e.hashed {
		end := e.ends[row]
		rec := all[end-len(docs[row].Source)-seqLen : end]
		ids = e.rowIDs.Append(ids, rec, e.epoch, counts[k], e.hs[k])
	}
	// One string for all the ids of the batch.
	str := string(ids)
	for k, row := range e.hashed {
		docs[row].ID = str[k*idLen : (k+1)*idLen]
	}
}

// idOf is the id columns' docid.Key; "" when one is NULL and they are
// not group keys (the row gets a row id instead).
func (e *Encoder) idOf(batch arrow.RecordBatch, row int) string {
	parts := make([]docid.Part, len(e.idCols))
	for i, c := range e.idCols {
		parts[i] = docid.ValueAt(batch.Column(c), row)
		if parts[i].Null && !e.keyNulls {
			return ""
		}
	}
	return docid.Key(parts)
}
