package conformance

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// roundTripRows is how many rows the round-trip table holds: enough for
// every edge value of every kind to appear at every nesting level.
const roundTripRows = 60

// roundTripData is the round-trip table's rows, as two batches of one
// epoch.
func roundTripData(schema *arrow.Schema) []arrow.RecordBatch {
	return []arrow.RecordBatch{batch(schema, 0, 35), batch(schema, 35, roundTripRows-35)}
}

// roundTrip writes rows of every declared type and reads them back.
func (c *target) roundTrip(t *testing.T) {
	schema := tableSchema(c.caps().Types, c.caps().Limits)
	for k, why := range c.caps().Limits {
		t.Logf("declared limitation, not checked: %s: %s", k, why)
	}
	spec := c.table(t, "roundtrip", schema, nil)
	data := roundTripData(schema)
	c.write(t, spec, 1, data...)
	src := c.source(t, spec)
	sameSchema(t, src.Schema(), schema)
	compareByID(t, ReadAll(t, src), data)
}

// writeOnly checks that a sink that cannot be read back takes rows of
// every type it declares.
func (c *target) writeOnly(t *testing.T) {
	schema := tableSchema(c.caps().Types, c.caps().Limits)
	spec := c.table(t, "write", schema, nil)
	c.write(t, spec, 1, batch(schema, 0, 1))
}

// sameSchema fails unless got has want's columns, names and types.
func sameSchema(t *testing.T, got, want *arrow.Schema) {
	t.Helper()
	if got.NumFields() != want.NumFields() {
		t.Errorf("source schema has %d columns, the table %d:\n%s", got.NumFields(), want.NumFields(), got)
		return
	}
	for i, f := range want.Fields() {
		g := got.Field(i)
		if g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) {
			t.Errorf("source column %d is %s %s, the table's %s %s", i, g.Name, types.SQLName(g.Type), f.Name, types.SQLName(f.Type))
		}
	}
}

// compareByID compares two tables row by row, matched on column 0 (id),
// cell by cell, printed exactly; columns are matched by name.
func compareByID(t *testing.T, got, want []arrow.RecordBatch) {
	t.Helper()
	g, gdup := cells(got)
	w, _ := cells(want)
	for _, id := range gdup {
		t.Errorf("row id %s read more than once", id)
	}
	bad := map[string]int{}
	var ids []string
	for id := range w {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		gr, ok := g[id]
		if !ok {
			t.Errorf("row id %s was not read back", id)
			continue
		}
		for col, wv := range w[id] {
			gv, ok := gr[col]
			if !ok {
				if bad[col]++; bad[col] <= 1 {
					t.Errorf("column %s was not read back", col)
				}
				continue
			}
			if gv != wv {
				// Every differing value of a column is one failure, and the
				// first three are shown.
				if bad[col]++; bad[col] <= 3 {
					t.Errorf("column %s, row id %s:\n  got  %s\n  want %s", col, id, gv, wv)
				}
			}
		}
	}
	for id := range g {
		if _, ok := w[id]; !ok {
			t.Errorf("row id %s was read back but never written", id)
		}
	}
	if len(bad) > 0 {
		var cols []string
		for c, n := range bad {
			cols = append(cols, fmt.Sprintf("%s (%d rows)", c, n))
		}
		sort.Strings(cols)
		t.Errorf("columns that do not round-trip: %s", strings.Join(cols, ", "))
	}
}

// cells maps each row's id to its values by column name, and lists ids
// seen more than once.
func cells(batches []arrow.RecordBatch) (map[string]map[string]string, []string) {
	out := map[string]map[string]string{}
	var dups []string
	for _, b := range batches {
		for i := 0; i < int(b.NumRows()); i++ {
			id := exact(b.Column(0), i)
			if _, seen := out[id]; seen {
				dups = append(dups, id)
			}
			row := map[string]string{}
			for c := 1; c < int(b.NumCols()); c++ {
				row[b.Schema().Field(c).Name] = exact(b.Column(c), i)
			}
			out[id] = row
		}
	}
	return out, dups
}

// inferred reads the round-trip table back without declared columns: the
// connector's Infer must give each column the type Capabilities.Inferred
// says, and a column whose type is unchanged its exact values.
func (c *target) inferred(t *testing.T) {
	ctx := context.Background()
	caps := c.caps()
	schema := tableSchema(caps.Types, caps.Limits)
	spec := c.table(t, "inferred", schema, nil)
	data := roundTripData(schema)
	c.write(t, spec, 1, data...)
	spec.Schema = nil
	got, parts, err := c.f.Infer(ctx, spec)
	if err != nil {
		t.Fatalf("Infer: %v", err)
	}
	if len(parts) != 0 {
		t.Errorf("Infer found partition columns %v in an unpartitioned table", parts)
	}
	t.Logf("inferred %s", got)
	if len(got.FieldIndices("id")) == 0 {
		t.Fatalf("Infer lost the id column: %s", got)
	}
	// The id is any integer type inference picks for its small values.
	keep := []arrow.Field{got.Field(got.FieldIndices("id")[0])}
	for _, f := range schema.Fields()[1:] {
		want, check := widened(f.Type, caps.Inferred)
		idx := got.FieldIndices(f.Name)
		if len(idx) == 0 {
			t.Errorf("Infer lost column %s", f.Name)
			continue
		}
		g := got.Field(idx[0])
		if !check {
			t.Logf("column %s: inferred as %s (not checked: declared as not inferable)", f.Name, types.SQLName(g.Type))
			continue
		}
		if !arrow.TypeEqual(byName(g.Type), byName(want)) {
			t.Errorf("column %s %s: inferred as %s, declared to come back as %s", f.Name, types.SQLName(f.Type), types.SQLName(g.Type), types.SQLName(want))
			continue
		}
		if arrow.TypeEqual(g.Type, f.Type) {
			keep = append(keep, f)
		}
	}
	// Read with the inferred schema, then compare the unchanged columns.
	spec.Schema = got
	rows := c.read(t, spec)
	var gotCols, wantCols []arrow.RecordBatch
	for _, b := range rows {
		gotCols = append(gotCols, pick(t, b, keep))
	}
	for _, b := range data {
		wantCols = append(wantCols, pick(t, b, keep))
	}
	compareByID(t, gotCols, wantCols)
}

// byName is t with the fields of every struct in it sorted by name: the
// order inference finds them in is not the declared one.
func byName(t arrow.DataType) arrow.DataType {
	switch tt := t.(type) {
	case *arrow.ListType:
		return types.Array(byName(tt.Elem()))
	case *arrow.MapType:
		return types.Map(byName(tt.ItemType()))
	case *arrow.StructType:
		fs := make([]arrow.Field, tt.NumFields())
		for i, f := range tt.Fields() {
			fs[i] = field(f.Name, byName(f.Type))
		}
		sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
		return types.Struct(fs...)
	}
	return t
}

// widened is t as Infer gives it back under the declared mapping; false
// when the mapping says a kind in t cannot be inferred.
func widened(t arrow.DataType, m map[string]string) (arrow.DataType, bool) {
	kind := kinds(t)[0]
	if to, ok := m[kind]; ok {
		if to == "" {
			return nil, false
		}
		if kind != to {
			return scalarType(to), true
		}
	}
	switch tt := t.(type) {
	case *arrow.ListType:
		e, ok := widened(tt.Elem(), m)
		if !ok {
			return nil, false
		}
		return types.Array(e), true
	case *arrow.MapType:
		e, ok := widened(tt.ItemType(), m)
		if !ok {
			return nil, false
		}
		return types.Map(e), true
	case *arrow.StructType:
		var fs []arrow.Field
		for _, f := range tt.Fields() {
			e, ok := widened(f.Type, m)
			if !ok {
				return nil, false
			}
			fs = append(fs, field(f.Name, e))
		}
		return types.Struct(fs...), true
	}
	return t, true
}

// pick keeps the named columns of b (by name).
func pick(t *testing.T, b arrow.RecordBatch, fields []arrow.Field) arrow.RecordBatch {
	t.Helper()
	cols := make([]arrow.Array, len(fields))
	out := make([]arrow.Field, len(fields))
	for i, f := range fields {
		idx := b.Schema().FieldIndices(f.Name)
		if len(idx) == 0 {
			t.Fatalf("batch has no column %s", f.Name)
		}
		cols[i], out[i] = b.Column(idx[0]), b.Schema().Field(idx[0])
	}
	return newBatch(arrow.NewSchema(out, nil), cols, b.NumRows())
}
