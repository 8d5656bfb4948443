package catalog

import (
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/types"
)

func TestPersistAcrossOpen(t *testing.T) {
	dir := t.TempDir()
	c1, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "@timestamp", Type: types.Timestamp, Nullable: true},
		{Name: "price", Type: types.Decimal(10, 2), Nullable: true},
		{Name: "geo", Type: types.Struct(arrow.Field{Name: "city", Type: types.String}), Nullable: true},
		{Name: "tags", Type: types.Array(types.String), Nullable: true},
		{Name: "attrs", Type: types.Map(types.BigInt), Nullable: true},
	}, nil)
	tbl := &Table{Spec: connector.TableSpec{Name: "Logs", Using: "json", Location: "/x",
		Options: map[string]string{"compression": "gzip"}, Schema: schema},
		Watermark: &Watermark{Column: "@timestamp", Expr: "`@timestamp` - INTERVAL 1 MINUTE"}}
	if err := c1.CreateTable(tbl, false); err != nil {
		t.Fatal(err)
	}
	if err := c1.CreateTable(tbl, false); !errors.Is(err, ErrExists) {
		t.Fatalf("want ErrExists, got %v", err)
	}
	if err := c1.CreateTable(tbl, true); err != nil {
		t.Fatalf("IF NOT EXISTS: %v", err)
	}
	c2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c2.Table("LOGS")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Spec.Schema.Equal(schema) {
		t.Fatalf("schema round trip:\n got %v\nwant %v", got.Spec.Schema, schema)
	}
	if got.Watermark == nil || got.Watermark.Column != "@timestamp" || got.Spec.Options["compression"] != "gzip" {
		t.Fatalf("bad round trip: %+v", got)
	}
	if err := c2.DropTable("logs", false); err != nil {
		t.Fatal(err)
	}
	if _, err := c1.Table("logs"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("other handle should see the drop, got %v", err)
	}
	if err := c1.DropTable("logs", false); !errors.Is(err, ErrNotFound) {
		t.Fatalf("want ErrNotFound, got %v", err)
	}
	if err := c1.DropTable("logs", true); err != nil {
		t.Fatal(err)
	}
}

func TestObjects(t *testing.T) {
	c, _ := Open("")
	if err := c.PutObject(&Object{Kind: "stream", Name: "feed", SQL: "INSERT STREAM ..."}, false); err != nil {
		t.Fatal(err)
	}
	if err := c.PutObject(&Object{Kind: "stream", Name: "FEED"}, false); !errors.Is(err, ErrExists) {
		t.Fatalf("want ErrExists, got %v", err)
	}
	if _, err := c.Object("view", "feed"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("kind must match, got %v", err)
	}
	os, _ := c.Objects("stream")
	if len(os) != 1 {
		t.Fatalf("want 1 stream, got %d", len(os))
	}
	if err := c.DropObject("stream", "feed", false); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentWriters: handles on one data directory (as separate
// processes would have) creating tables at once all keep their table.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	const n = 8
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func(i int) {
			c, err := Open(dir)
			if err != nil {
				errs <- err
				return
			}
			schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: types.Int, Nullable: true}}, nil)
			errs <- c.CreateTable(&Table{Spec: connector.TableSpec{Name: fmt.Sprintf("t%d", i), Using: "json", Location: "/x", Schema: schema}}, false)
		}(i)
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	c, _ := Open(dir)
	ts, err := c.Tables()
	if err != nil || len(ts) != n {
		t.Fatalf("%d tables kept of %d (%v)", len(ts), n, err)
	}
}
