package exec

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// StateDescription says what a stateful operator's snapshot means, so a
// restarted stream can tell whether a checkpoint's state fits its plan.
//
// Kind names the operator ("window_aggregate"); Props lists, in a fixed
// order, everything a snapshot's content depends on (group keys,
// aggregates, window, output mode, buffered row schema), as canonical
// text. Columns are printed by name, never by index, so a filter or
// projection added in front, which shifts indices, does not change the
// description; nothing in it may come from map order or pointers.
type StateDescription struct {
	Kind  string          `json:"kind"`
	Props []StateProperty `json:"props,omitempty"`
}

// StateProperty is one named part of a StateDescription.
type StateProperty struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// StateShaper is a stateless operator that decides part of what the
// state of the next stateful operator after it means: the Generate that
// assigns HOP windows, whose sizes the WindowAggregate only sees as a
// column. Its properties join that operator's description.
type StateShaper interface {
	StateShape() []StateProperty
}

// Fingerprint is a hash of the kind and properties: equal fingerprints
// mean a snapshot of one restores into the other.
func (d StateDescription) Fingerprint() string {
	h := sha256.New()
	write := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	write(d.Kind)
	for _, p := range d.Props {
		write(p.Name)
		write(p.Value)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Diff says how d differs from old, property by property, e.g. "group
// keys were [status INT] and are now [status INT, host STRING]"; empty
// when they are the same.
func (d StateDescription) Diff(old StateDescription) string {
	var out []string
	if d.Kind != old.Kind {
		out = append(out, fmt.Sprintf("the operator was %s and is now %s", old.Kind, d.Kind))
	}
	oldProps := map[string]string{}
	for _, p := range old.Props {
		oldProps[p.Name] = p.Value
	}
	newProps := map[string]bool{}
	for _, p := range d.Props {
		newProps[p.Name] = true
		was, ok := oldProps[p.Name]
		was1, is := verbs(p.Name)
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s %s now %s and %s not recorded before", p.Name, is, p.Value, was1))
		case was != p.Value:
			out = append(out, fmt.Sprintf("%s %s %s and %s now %s", p.Name, was1, was, is, p.Value))
		}
	}
	for _, p := range old.Props {
		if !newProps[p.Name] {
			was1, is := verbs(p.Name)
			out = append(out, fmt.Sprintf("%s %s %s and %s now gone", p.Name, was1, p.Value, is))
		}
	}
	return strings.Join(out, "; ")
}

// verbs agrees with a property's name: "group keys were", "window was".
func verbs(name string) (was, is string) {
	if strings.HasSuffix(name, "s") {
		return "were", "are"
	}
	return "was", "is"
}

// With returns d with props appended.
func (d StateDescription) With(props ...StateProperty) StateDescription {
	d.Props = append(append([]StateProperty{}, d.Props...), props...)
	return d
}

func describeExprs(es []expr.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String() + " " + types.SQLName(e.Type())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func describeAggs(aggs []*expr.Aggregate) string {
	parts := make([]string, len(aggs))
	for i, a := range aggs {
		parts[i] = a.String() + " " + types.SQLName(a.Type())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func describeSortKeys(keys []SortKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String() + " " + types.SQLName(k.Expr.Type())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// describeSchema prints the columns of buffered rows: their order and
// types are what a snapshot's rows are read back with.
func describeSchema(s *arrow.Schema) string {
	parts := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		parts[i] = types.QuoteIdent(f.Name) + " " + types.SQLName(f.Type)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// StateRower is a stateful operator that can tell how many rows (groups,
// windows' groups, seen rows) its state holds, for the console's state
// panel; the checkpoint records it beside the operator's bytes.
type StateRower interface {
	StateRows() int64
}
