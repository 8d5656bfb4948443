package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/expr"
)

// Scan reads a table through its connector's source. The binder gives it
// every column (hidden metadata ones included); rules then narrow Fields
// to what the query reads and set Filter to the predicate the source may
// use to skip data. Finalize pushes both into the source.
type Scan struct {
	Table string
	// Base is the source as the connector opened it, before pushdown.
	Base connector.Source
	// Fields are the columns this scan produces, in order.
	Fields []arrow.Field
	// Filter is over Fields; the plan keeps a Filter node above, so rows
	// are always checked again.
	Filter expr.Expr
	// Source is Base with projection and filter pushed (set by Finalize).
	Source connector.Source
	// Stream marks a streaming query's input (set by the binder): its rows
	// arrive epoch by epoch, so nothing that needs the whole input (a
	// pushed aggregation) may be handed to its source.
	Stream bool
	// Pushed says what the source computes beyond Fields and Filter (a
	// pushed aggregation), for EXPLAIN.
	Pushed string
}

// Schema is Fields.
func (s *Scan) Schema() *arrow.Schema { return arrow.NewSchema(s.Fields, nil) }

// Children: none.
func (s *Scan) Children() []Node { return nil }

// WithChildren returns s.
func (s *Scan) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(s, children, 0); err != nil {
		return nil, err
	}
	return s, nil
}

// Finalize pushes the projection and filter into the source where it can
// take them.
func (s *Scan) Finalize() error {
	src := s.Base
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
	}
	if pp, ok := src.(connector.ProjectionPusher); ok {
		p, err := pp.PushProjection(names)
		if err != nil {
			return fmt.Errorf("scan %s: pushing projection: %w", s.Table, err)
		}
		src = p
	} else if !sameNames(src.Schema(), names) {
		p, err := newProjectedSource(src, names)
		if err != nil {
			return fmt.Errorf("scan %s: %w", s.Table, err)
		}
		src = p
	}
	if s.Filter != nil {
		if fp, ok := src.(connector.FilterPusher); ok {
			f, err := fp.PushFilter(s.Filter)
			if err != nil {
				return fmt.Errorf("scan %s: pushing filter: %w", s.Table, err)
			}
			src = f
		}
	}
	s.Source = src
	return nil
}

func sameNames(s *arrow.Schema, names []string) bool {
	if s.NumFields() != len(names) {
		return false
	}
	for i, f := range s.Fields() {
		if f.Name != names[i] {
			return false
		}
	}
	return true
}

func (s *Scan) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Scan %s", s.Table)
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
	}
	fmt.Fprintf(&b, " columns=[%s]", strings.Join(names, ", "))
	if s.Filter != nil {
		fmt.Fprintf(&b, " filter=%s", s.Filter)
	}
	if s.Pushed != "" {
		fmt.Fprintf(&b, " pushed=(%s)", s.Pushed)
	}
	return b.String()
}
