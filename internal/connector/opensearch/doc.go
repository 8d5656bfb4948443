package opensearch

import (
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
	seen    rowCounts

	rows     format.JSONRows
	rowBytes int   // about a source's size in the last batch
	ends     []int // scratch: where each row's record ends
	hashed   []int // scratch: rows given a content-hash id
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
	// id hash fills with the epoch and the row's count, so both hashes
	// run over contiguous bytes.
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
	var ids []byte // the content-hash ids, hex, idLen bytes each
	hashed := e.hashed[:0]
	start := 0
	for row := 0; row < n; row++ {
		src := all[start+seqLen : ends[row] : ends[row]]
		d := Doc{Source: src}
		if len(e.idCols) > 0 {
			d.ID = e.idOf(batch, row)
		}
		if d.ID == "" {
			if ids == nil {
				ids = make([]byte, 0, (n-row)*idLen)
			}
			ids = e.hashID(ids, all[start:ends[row]])
			hashed = append(hashed, row)
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
	// One string for all the hashed ids of the batch.
	str := string(ids)
	for k, row := range hashed {
		docs[row].ID = str[k*idLen : (k+1)*idLen]
	}
	e.hashed = hashed
	return docs, nil
}

// Content-hash ids: seqLen bytes of epoch and count hashed before the
// source, idLen hex digits.
const (
	seqLen = 12
	idLen  = 32
)

// hashID appends the id of a row without id columns: the hash of its
// source (rec after its first seqLen bytes) and the hash of the epoch,
// how many identical sources came before it in the epoch and the
// source, which rec's first seqLen bytes are set to.
func (e *Encoder) hashID(ids []byte, rec []byte) []byte {
	src := rec[seqLen:]
	h := xxhash.Sum64(src)
	k := e.seen.next(h)
	binary.LittleEndian.PutUint64(rec[:8], uint64(e.epoch))
	binary.LittleEndian.PutUint32(rec[8:12], k)
	var sum [16]byte
	binary.BigEndian.PutUint64(sum[:8], xxhash.Sum64(rec))
	binary.BigEndian.PutUint64(sum[8:], h)
	return hex.AppendEncode(ids, sum[:])
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
