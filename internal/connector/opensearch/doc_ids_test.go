package opensearch_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector/conformance"
	"sluice/internal/connector/opensearch"
)

// pairBatch is rows of (a, b STRING, n INT); a nil string is NULL.
func pairBatch(rows ...[2]*string) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range rows {
		for c, v := range r {
			if v == nil {
				b.Field(c).AppendNull()
			} else {
				b.Field(c).(*array.StringBuilder).Append(*v)
			}
		}
	}
	return b.NewRecordBatch()
}

func str(s string) *string { return &s }

// TestEncoderCompositeIDs: keys whose values hold the separator are
// distinct documents (issue 25: ('x|y','z') and ('x','y|z') were one).
func TestEncoderCompositeIDs(t *testing.T) {
	batch := pairBatch([2]*string{str("x|y"), str("z")}, [2]*string{str("x"), str("y|z")}, [2]*string{str("web"), str("1")})
	enc, err := opensearch.NewEncoder(batch.Schema(), []string{"a", "b"}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := enc.Encode(batch)
	if err != nil {
		t.Fatal(err)
	}
	if docs[0].ID == docs[1].ID {
		t.Fatalf("('x|y','z') and ('x','y|z') share id %q", docs[0].ID)
	}
	if docs[2].ID != "web|1" {
		t.Fatalf("a plain key's id changed: %q, want web|1", docs[2].ID)
	}
}

// TestEncoderGroupKeyNulls: with group keys a NULL key is named by the
// key alone, the same at every epoch and whatever the rest of the row
// (a view's NULL group is one document); without, it gets a row id.
func TestEncoderGroupKeyNulls(t *testing.T) {
	null := pairBatch([2]*string{nil, str("z")})
	enc, err := opensearch.NewEncoder(null.Schema(), []string{"a"}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	enc.SetGroupKeys()
	var ids []string
	for epoch, batch := range []arrow.RecordBatch{null, pairBatch([2]*string{nil, str("other")})} {
		enc.BeginEpoch(int64(epoch))
		docs, err := enc.Encode(batch)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, docs[0].ID)
	}
	if ids[0] != ids[1] || ids[0] != `\N` {
		t.Fatalf("NULL group ids %q, want one id \\N", ids)
	}
	plain, _ := opensearch.NewEncoder(null.Schema(), []string{"a"}, "", "")
	docs, _ := plain.Encode(null)
	if docs[0].ID == `\N` || len(docs[0].ID) != 32 {
		t.Fatalf("a NULL id column outside a group key got id %q, want a row id", docs[0].ID)
	}
}

// TestEncoderWrites: rows without an id of two writes (INSERTs) at
// epoch 0 get distinct ids; the same write replayed gets the same ones.
func TestEncoderWrites(t *testing.T) {
	idsOf := func(write string) []string {
		enc, err := opensearch.NewEncoder(conformance.SearchSchema, nil, "", "")
		if err != nil {
			t.Fatal(err)
		}
		enc.SetWrite(write)
		enc.BeginEpoch(0)
		docs, err := enc.Encode(conformance.SearchBatch(0, 5))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, d := range docs {
			ids = append(ids, d.ID)
		}
		return ids
	}
	a, again, b := idsOf("insert-a"), idsOf("insert-a"), idsOf("insert-b")
	for i := range a {
		if a[i] != again[i] {
			t.Fatalf("row %d: the same write gives ids %s and %s", i, a[i], again[i])
		}
		if a[i] == b[i] {
			t.Fatalf("row %d: two writes share id %s", i, a[i])
		}
	}
}
