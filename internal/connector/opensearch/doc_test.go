package opensearch_test

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cespare/xxhash/v2"

	"sluice/internal/connector/conformance"
	"sluice/internal/connector/opensearch"
	"sluice/internal/format"
)

// refDocs are a batch's sources and content-hash ids as the encoder made
// them when they were first indexed: JSON lines of the format writer, ids
// of the epoch, the row's count among identical rows and its source. A
// replay must give the ids already in the index, so they can never
// change.
func refDocs(t *testing.T, epoch int64, seen map[uint64]uint32, batch arrow.RecordBatch) (srcs, ids []string) {
	t.Helper()
	var buf bytes.Buffer
	w, err := format.NewWriter(&buf, batch.Schema(), format.Options{Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, line := range bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n")) {
		h := xxhash.Sum64(line)
		k := seen[h]
		seen[h] = k + 1
		var seq [12]byte
		binary.LittleEndian.PutUint64(seq[:8], uint64(epoch))
		binary.LittleEndian.PutUint32(seq[8:], k)
		d := xxhash.New()
		d.Write(seq[:])
		d.Write(line)
		var sum [16]byte
		binary.BigEndian.PutUint64(sum[:8], d.Sum64())
		binary.BigEndian.PutUint64(sum[8:], h)
		srcs, ids = append(srcs, string(line)), append(ids, hex.EncodeToString(sum[:]))
	}
	return srcs, ids
}

// TestEncoderStableIDs checks sources and ids against refDocs over
// batches that repeat rows (identical rows get distinct ids, counted
// across batches) and two epochs.
func TestEncoderStableIDs(t *testing.T) {
	enc, err := opensearch.NewEncoder(conformance.SearchSchema, nil, "", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, epoch := range []int64{0, 7} {
		enc.BeginEpoch(epoch)
		seen := map[uint64]uint32{}
		for _, batch := range []arrow.RecordBatch{conformance.SearchBatch(0, 300), conformance.SearchBatch(0, 40), conformance.SearchBatch(290, 20)} {
			docs, err := enc.Encode(batch)
			if err != nil {
				t.Fatal(err)
			}
			srcs, ids := refDocs(t, epoch, seen, batch)
			if len(docs) != len(srcs) {
				t.Fatalf("%d documents for %d rows", len(docs), len(srcs))
			}
			for i, d := range docs {
				if string(d.Source) != srcs[i] || d.ID != ids[i] {
					t.Fatalf("epoch %d row %d: got %s %s, want %s %s", epoch, i, d.ID, d.Source, ids[i], srcs[i])
				}
				if cap(d.Source) != len(d.Source) {
					t.Fatalf("row %d: a source can be appended to over the next one", i)
				}
			}
		}
	}
}

// TestEncoderIDColumns checks ids from columns and the content hash
// where an id column is NULL, and routing.
func TestEncoderIDColumns(t *testing.T) {
	enc, err := opensearch.NewEncoder(conformance.SearchSchema, []string{"host", "id"}, "status", "")
	if err != nil {
		t.Fatal(err)
	}
	batch := conformance.SearchBatch(0, 30)
	docs, err := enc.Encode(batch)
	if err != nil {
		t.Fatal(err)
	}
	srcs, ids := refDocs(t, 0, map[uint64]uint32{}, batch)
	for i, d := range docs {
		want := "web-" + strconv.Itoa(i%4) + "|" + strconv.Itoa(i)
		if i%17 == 5 { // host NULL: hashed
			want = ids[i]
		}
		if d.ID != want || string(d.Source) != srcs[i] || d.Routing == "" {
			t.Errorf("row %d: id %q routing %q source %s, want id %q source %s", i, d.ID, d.Routing, d.Source, want, srcs[i])
		}
	}
}
