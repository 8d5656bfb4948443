package sql

import "strings"

// WindowSpec is the window of OVER (...) or of a named WINDOW clause:
// [name] [PARTITION BY ...] [ORDER BY ...] [frame]. Name refers to a
// named window whose parts this spec inherits (OVER w, OVER (w ORDER BY
// x)); it is "" when none is referred to.
type WindowSpec struct {
	At          Pos
	Name        string
	PartitionBy []Expr
	OrderBy     []*OrderItem
	Frame       *WindowFrame // nil: the default frame
}

// FrameUnit is how a frame's offsets count: rows, or order-key values.
type FrameUnit int

// The frame units.
const (
	FrameRows FrameUnit = iota
	FrameRange
)

func (u FrameUnit) String() string {
	if u == FrameRange {
		return "RANGE"
	}
	return "ROWS"
}

// BoundKind is where one end of a frame lies.
type BoundKind int

// The frame bounds, in the order they fall in a partition.
const (
	UnboundedPreceding BoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// FrameBound is one end of a frame; Offset is set for Preceding and
// Following (a number, or an INTERVAL for RANGE over a time key).
type FrameBound struct {
	Kind   BoundKind
	Offset Expr
}

// WindowFrame is ROWS|RANGE BETWEEN start AND end; a frame written with
// only a start ends at CURRENT ROW.
type WindowFrame struct {
	At         Pos
	Unit       FrameUnit
	Start, End FrameBound
}

// NamedWindow is one name AS (spec) of a SELECT's WINDOW clause.
type NamedWindow struct {
	At   Pos
	Name string
	Spec *WindowSpec
}

func (w *WindowSpec) Pos() Pos  { return w.At }
func (f *WindowFrame) Pos() Pos { return f.At }
func (n *NamedWindow) Pos() Pos { return n.At }

// String prints the spec without its parentheses.
func (w *WindowSpec) String() string {
	var parts []string
	if w.Name != "" {
		parts = append(parts, QuoteIdent(w.Name))
	}
	if len(w.PartitionBy) > 0 {
		var b strings.Builder
		b.WriteString("PARTITION BY ")
		writeList(&b, w.PartitionBy)
		parts = append(parts, b.String())
	}
	if len(w.OrderBy) > 0 {
		items := make([]string, len(w.OrderBy))
		for i, o := range w.OrderBy {
			items[i] = o.String()
		}
		parts = append(parts, "ORDER BY "+strings.Join(items, ", "))
	}
	if w.Frame != nil {
		parts = append(parts, w.Frame.String())
	}
	return strings.Join(parts, " ")
}

// overString is how a call prints its OVER: a bare name when the spec is
// only a reference.
func (w *WindowSpec) overString() string {
	if w.Name != "" && len(w.PartitionBy) == 0 && len(w.OrderBy) == 0 && w.Frame == nil {
		return "OVER " + QuoteIdent(w.Name)
	}
	return "OVER (" + w.String() + ")"
}

func (f *WindowFrame) String() string {
	return f.Unit.String() + " BETWEEN " + f.Start.String() + " AND " + f.End.String()
}

func (b FrameBound) String() string {
	switch b.Kind {
	case UnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case Preceding:
		return b.Offset.String() + " PRECEDING"
	case CurrentRow:
		return "CURRENT ROW"
	case Following:
		return b.Offset.String() + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}

func (n *NamedWindow) String() string {
	return QuoteIdent(n.Name) + " AS (" + n.Spec.String() + ")"
}
