// Package conformance is the one suite every connector passes: it runs
// against each Factory it is given (the registry's, and any test's own)
// and checks what the Factory's Conformance capabilities declare.
//
//	conformance.Run(t, append(registry.All(), toy.Factory()), conformance.Fixture{
//		Name: "opensearch", Spec: func(t *testing.T, spec *connector.TableSpec) { ... endpoint ... },
//	})
//
// For each connector, as sub-tests of its name:
//
//	options       every declared key passes the registry's key check; an
//	              unknown key is refused with a did-you-mean; Prepare
//	              refuses it too
//	round trip    rows of every declared type, nested ones and NULLs at
//	              every level, written through the sink and read back
//	              through the source, compared exactly (schema and values)
//	inferred      the same table read without declared columns: each type
//	              comes back as Capabilities.Inferred says
//	pushdown      projections, filters (comparisons both ways round, IN,
//	              IS NULL, AND/OR/NOT on every scalar column) and
//	              aggregates pushed into the source give the rows reading
//	              everything and filtering gives
//	replay        an epoch written again after a crash leaves each row once
//	drop          after Factory.Drop a fresh source sees no rows; foreign
//	              files are kept and the drop refused where declared
//	search        the search-index checks (upserts, full-text predicates)
//	write         for sinks that cannot be read back: every type is accepted
//
// A fresh table comes from the Factory's properties (NeedsLocation: a
// temporary folder; Defaults: filled in from a temporary data dir) and
// from a Fixture for what cannot be generic (an OpenSearch endpoint).
package conformance

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/connector/registry"
)

// Fixture gives one connector's fresh tables what its Factory cannot.
type Fixture struct {
	// Name is the Factory name the fixture is for.
	Name string
	// Spec completes a fresh table's spec (an endpoint, a fresh index
	// name); it may end the test, as integration.Unavailable does when a
	// server cannot be had. It runs before the registry's Prepare.
	Spec func(t *testing.T, spec *connector.TableSpec)
	// Refresh makes what a sink flushed visible to new sources (nil: it
	// is at once).
	Refresh func(t *testing.T, spec connector.TableSpec)
	// Dir is the local folder holding a table's data, for the drop check
	// of DropKeepsForeign (nil: the LOCATION, else OPTIONS path).
	Dir func(spec connector.TableSpec) string
}

// Run runs the suite against every factory, each as a sub-test of its
// name. A factory without Conformance capabilities fails: what it
// supports must be declared.
func Run(t *testing.T, factories []*connector.Factory, fixtures ...Fixture) {
	t.Helper()
	for _, f := range factories {
		fx := Fixture{Name: f.Name}
		for _, x := range fixtures {
			if x.Name == f.Name {
				fx = x
			}
		}
		t.Run(f.Name, func(t *testing.T) {
			c := &target{f: f, fx: fx}
			c.run(t)
		})
	}
}

// target is one connector under test.
type target struct {
	f  *connector.Factory
	fx Fixture
	n  int
}

func (c *target) caps() connector.Capabilities { return *c.f.Conformance }

// skipDeclared skips t when the connector declares, in
// Capabilities.Skip, that it fails t or a check above it.
func (c *target) skipDeclared(t *testing.T) {
	t.Helper()
	_, rest, ok := strings.Cut(t.Name(), "/"+c.f.Name+"/")
	if !ok {
		return
	}
	segs := strings.Split(rest, "/")
	for key, why := range c.caps().Skip {
		for n := 1; n <= len(segs); n++ {
			if m, err := path.Match(key, strings.Join(segs[:n], "/")); err == nil && m {
				t.Skipf("declared limitation of %s (%s): %s", c.f.Name, key, why)
			}
		}
	}
}

// runCheck runs check as the sub-test name, unless it is declared as
// known to fail.
func (c *target) runCheck(t *testing.T, name string, check func(t *testing.T)) bool {
	t.Helper()
	return t.Run(name, func(t *testing.T) {
		c.skipDeclared(t)
		check(t)
	})
}

func (c *target) run(t *testing.T) {
	if c.f.Conformance == nil {
		t.Fatalf("connector %s declares no Conformance capabilities (connector.Factory.Conformance)", c.f.Name)
	}
	caps := c.caps()
	c.runCheck(t, "options", c.options)
	if c.f.NewSink != nil && !caps.ReadBack {
		c.runCheck(t, "write", c.writeOnly)
	}
	if caps.ReadBack {
		if c.f.NewSink == nil || c.f.NewSource == nil {
			t.Fatalf("connector %s declares ReadBack but has no sink or no source", c.f.Name)
		}
		c.runCheck(t, "round trip", c.roundTrip)
		if c.f.Infer != nil && caps.Inferred != nil {
			c.runCheck(t, "inferred", c.inferred)
		}
		c.runCheck(t, "pushdown", c.pushdown)
		c.runCheck(t, "replay", c.replay)
		if c.f.Drop != nil {
			c.runCheck(t, "drop", c.drop)
		}
		if caps.Search {
			c.runCheck(t, "search", c.search)
		}
	}
}

var unsafeName = regexp.MustCompile(`[^a-z0-9_]+`)

// table returns a fresh table of the connector: a unique name, schema,
// the given options, and what the Factory and the fixture fill in.
func (c *target) table(t *testing.T, name string, schema *arrow.Schema, opts map[string]string) connector.TableSpec {
	t.Helper()
	c.n++
	name = fmt.Sprintf("conf_%d_%s", c.n, unsafeName.ReplaceAllString(strings.ToLower(name), "_"))
	o := map[string]string{}
	for k, v := range c.caps().TableOptions {
		o[k] = v
	}
	for k, v := range opts {
		o[k] = v
	}
	spec := connector.TableSpec{Name: name, Using: c.f.Name, Options: o, Schema: schema}
	if c.f.NeedsLocation {
		spec.Location = filepath.Join(t.TempDir(), name) + "/"
	}
	if c.fx.Spec != nil {
		c.fx.Spec(t, &spec)
	}
	if _, err := registry.PrepareFactory(c.f, &spec, connector.Env{DataDir: t.TempDir()}); err != nil {
		t.Fatalf("preparing a fresh %s table: %v", c.f.Name, err)
	}
	return spec
}

// sink opens a sink over spec with the suite's SinkOptions: the same
// prefix every time, so that a replay writes what the first attempt did.
func (c *target) sink(t *testing.T, spec connector.TableSpec) connector.Sink {
	t.Helper()
	s, err := c.f.NewSink(context.Background(), spec, connector.SinkOptions{FilePrefix: "conformance", TempDir: t.TempDir()})
	if err != nil {
		t.Fatalf("NewSink: %v", err)
	}
	return s
}

// source opens a source over spec.
func (c *target) source(t *testing.T, spec connector.TableSpec) connector.Source {
	t.Helper()
	s, err := c.f.NewSource(context.Background(), spec)
	if err != nil {
		t.Fatalf("NewSource: %v", err)
	}
	return s
}

// write writes batches as epoch through a fresh sink, flushes and closes
// it, and refreshes the table.
func (c *target) write(t *testing.T, spec connector.TableSpec, epoch int64, batches ...arrow.RecordBatch) {
	t.Helper()
	ctx := context.Background()
	s := c.sink(t, spec)
	if b, ok := s.(connector.EpochBeginner); ok {
		if err := b.BeginEpoch(ctx, epoch); err != nil {
			t.Fatalf("BeginEpoch(%d): %v", epoch, err)
		}
	}
	for _, b := range batches {
		if err := s.Write(ctx, b); err != nil {
			s.Close()
			t.Fatalf("Write: %v", err)
		}
	}
	if err := s.Flush(ctx, epoch); err != nil {
		s.Close()
		t.Fatalf("Flush(%d): %v", epoch, err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	c.refresh(t, spec)
}

func (c *target) refresh(t *testing.T, spec connector.TableSpec) {
	t.Helper()
	if c.fx.Refresh != nil {
		c.fx.Refresh(t, spec)
	}
}

// read reads the whole table through a fresh source.
func (c *target) read(t *testing.T, spec connector.TableSpec) []arrow.RecordBatch {
	t.Helper()
	return ReadAll(t, c.source(t, spec))
}
