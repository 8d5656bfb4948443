package conformance

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
)

// drop checks Factory.Drop: afterwards a fresh source sees no rows, a
// second drop is not an error, and the table can be written again;
// where declared, a folder holding a foreign file is refused and kept.
func (c *target) drop(t *testing.T) {
	ctx := context.Background()
	schema := tableSchema(c.caps().Types, c.caps().Limits)
	spec := c.table(t, "drop", schema, nil)
	data := []arrow.RecordBatch{batch(schema, 0, 10)}
	c.write(t, spec, 1, data...)
	if n := count(c.read(t, spec)); n != 10 {
		t.Fatalf("read %d rows before the drop, want 10", n)
	}
	if err := c.f.Drop(ctx, spec); err != nil {
		t.Fatalf("Drop: %v", err)
	}
	c.refresh(t, spec)
	if n := count(c.read(t, spec)); n != 0 {
		t.Errorf("a fresh source read %d rows after Drop", n)
	}
	if err := c.f.Drop(ctx, spec); err != nil {
		t.Errorf("dropping a dropped table: %v", err)
	}
	c.write(t, spec, 1, data...)
	diff(t, exactRows(t, c.read(t, spec), nil), exactRows(t, data, nil))
	if err := c.f.Drop(ctx, spec); err != nil {
		t.Fatalf("Drop after writing again: %v", err)
	}

	if !c.caps().DropKeepsForeign {
		return
	}
	t.Run("foreign file", func(t *testing.T) {
		spec := c.table(t, "drop_foreign", schema, nil)
		c.write(t, spec, 1, data...)
		dir := c.dir(spec)
		if dir == "" {
			t.Fatalf("no local folder for a %s table: give the Fixture a Dir", c.f.Name)
		}
		foreign := filepath.Join(dir, "not-mine.txt")
		if err := os.WriteFile(foreign, []byte("keep me"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := c.f.Drop(ctx, spec); err == nil {
			t.Errorf("Drop of a folder holding a foreign file succeeded")
		}
		if _, err := os.Stat(foreign); errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Drop deleted the foreign file")
		}
		diff(t, exactRows(t, c.read(t, spec), nil), exactRows(t, data, nil))
		if err := os.Remove(foreign); err != nil {
			t.Fatal(err)
		}
		if err := c.f.Drop(ctx, spec); err != nil {
			t.Fatalf("Drop once the foreign file is gone: %v", err)
		}
		if n := count(c.read(t, spec)); n != 0 {
			t.Errorf("a fresh source read %d rows after Drop", n)
		}
	})
}

// dir is the local folder of a table's data.
func (c *target) dir(spec connector.TableSpec) string {
	if c.fx.Dir != nil {
		return c.fx.Dir(spec)
	}
	if spec.Location != "" {
		return spec.Location
	}
	return spec.Options["path"]
}
