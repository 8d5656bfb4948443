package opensearch

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cespare/xxhash/v2"

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

// Encoder turns batches into documents with deterministic ids.
//
// With id columns, a document's id is their values (joined by "|" when
// there are several). Without, it is a hash of the epoch, the row's JSON
// and how many identical rows came before it in the epoch: the same input
// replayed (in any order) gives the same ids, so a replay overwrites,
// while two identical rows stay two documents. The count per distinct row
// is what the encoder remembers within an epoch (12 bytes a row).
type Encoder struct {
	schema  *arrow.Schema
	idCols  []int
	routing int
	index   *resolver
	epoch   int64
	seen    map[uint64]uint32
	buf     bytes.Buffer
}

// NewEncoder binds id columns, a routing column ("" for none) and an index
// pattern ("" for none) to schema.
func NewEncoder(schema *arrow.Schema, idCols []string, routing, index string) (*Encoder, error) {
	e := &Encoder{schema: schema, routing: -1, seen: map[uint64]uint32{}}
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

// BeginEpoch starts the id sequence of an epoch afresh.
func (e *Encoder) BeginEpoch(epoch int64) {
	e.epoch = epoch
	clear(e.seen)
}

// Encode returns one document per row of batch.
func (e *Encoder) Encode(batch arrow.RecordBatch) ([]Doc, error) {
	e.buf.Reset()
	w, err := format.NewWriter(&e.buf, batch.Schema(), format.Options{Format: "json"})
	if err != nil {
		return nil, err
	}
	if err := w.Write(batch); err != nil {
		return nil, fmt.Errorf("encoding documents: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("encoding documents: %w", err)
	}
	data := e.buf.Bytes()
	n := int(batch.NumRows())
	docs := make([]Doc, n)
	// One copy for the whole batch; documents are slices of it.
	all := append([]byte(nil), data...)
	var seq [16]byte
	for row := 0; row < n; row++ {
		nl := bytes.IndexByte(all, '\n')
		if nl < 0 {
			return nil, fmt.Errorf("encoding documents: %d rows but %d lines", n, row)
		}
		src := all[:nl:nl]
		all = all[nl+1:]
		d := Doc{Source: src}
		if len(e.idCols) > 0 {
			d.ID = e.idOf(batch, row)
		}
		if d.ID == "" {
			h := xxhash.Sum64(src)
			k := e.seen[h]
			e.seen[h] = k + 1
			binary.LittleEndian.PutUint64(seq[:8], uint64(e.epoch))
			binary.LittleEndian.PutUint32(seq[8:12], k)
			d2 := xxhash.New()
			_, _ = d2.Write(seq[:12])
			_, _ = d2.Write(src)
			var sum [16]byte
			binary.BigEndian.PutUint64(sum[:8], d2.Sum64())
			binary.BigEndian.PutUint64(sum[8:], h)
			d.ID = hex.EncodeToString(sum[:])
		}
		if e.routing >= 0 && !types.IsNull(batch.Column(e.routing), row) {
			d.Routing = types.FormatValue(batch.Column(e.routing), row)
		}
		if e.index != nil {
			d.Index, d.Err = e.index.name(batch, row)
		}
		docs[row] = d
	}
	return docs, nil
}

// idOf joins the id columns' values; "" when any is NULL (the content
// hash is used instead).
func (e *Encoder) idOf(batch arrow.RecordBatch, row int) string {
	parts := make([]string, len(e.idCols))
	for i, c := range e.idCols {
		col := batch.Column(c)
		if types.IsNull(col, row) {
			return ""
		}
		if col.DataType().ID() == arrow.TIMESTAMP {
			parts[i] = types.ValueAt(col, row).(interface{ Format(string) string }).Format("2006-01-02T15:04:05.999999Z")
			continue
		}
		parts[i] = types.FormatValue(col, row)
	}
	return strings.Join(parts, "|")
}
