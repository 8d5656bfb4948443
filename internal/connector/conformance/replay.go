package conformance

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
)

// replay writes epoch 1, then epoch 2 three times: cut short by a crash
// before its Flush, then in full, then again after a crash between its
// Flush and the commit, each through a fresh sink. Every row must be
// read back once, identical rows written twice in an epoch twice.
func (c *target) replay(t *testing.T) {
	if !c.caps().ReplaySafe {
		t.Skipf("%s declares that a replayed epoch may duplicate rows", c.f.Name)
	}
	ctx := context.Background()
	schema := tableSchema(c.caps().Types, c.caps().Limits)
	spec := c.table(t, "replay", schema, nil)
	first := []arrow.RecordBatch{batch(schema, 0, 20)}
	second := []arrow.RecordBatch{batch(schema, 20, 20), batch(schema, 20, 2)}
	c.write(t, spec, 1, first...)

	s := c.sink(t, spec)
	if b, ok := s.(connector.EpochBeginner); ok {
		if err := b.BeginEpoch(ctx, 2); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Write(ctx, second[0]); err != nil {
		t.Fatal(err)
	}
	_ = s.Close() // the crash: no Flush
	c.refresh(t, spec)

	c.write(t, spec, 2, second...)
	c.write(t, spec, 2, second...) // the replay after a crash before the commit

	want := exactRows(t, append(first, second...), nil)
	diff(t, exactRows(t, c.read(t, spec), nil), want)
}
