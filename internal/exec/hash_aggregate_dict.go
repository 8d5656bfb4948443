package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr"
)

// DictionaryPartials is an optional ability of a Partials operator
// whose partials take batches in which STRING and BINARY columns may be
// Arrow dictionary arrays (connector.DictReader): a scan that folds
// partials for it and has no operators of its own then reads such
// columns without decoding them. Batches that go anywhere else are
// decoded first (plainBatch).
type DictionaryPartials interface {
	Partials
	PartialsTakeDictionaries() bool
}

var _ DictionaryPartials = (*HashAggregate)(nil)

// PartialsTakeDictionaries is true when the aggregate groups by one bare
// STRING/BINARY column that no aggregate reads: its key table then maps
// each dictionary entry to a group once (keyTable.assignDict). Other
// dictionary columns are decoded as the batch comes in.
func (h *HashAggregate) PartialsTakeDictionaries() bool { return h.dictKey >= 0 }

// dictKeyColumn is HashAggregate.dictKey for these keys and aggregates.
func dictKeyColumn(groupBy []expr.Expr, aggs []*expr.Aggregate) int {
	if len(groupBy) != 1 {
		return -1
	}
	c, ok := groupBy[0].(*expr.Column)
	if !ok || (c.Type().ID() != arrow.STRING && c.Type().ID() != arrow.BINARY) {
		return -1
	}
	for _, a := range aggs {
		for _, arg := range a.Args {
			for _, i := range expr.Columns(arg) {
				if i == c.Index {
					return -1
				}
			}
		}
	}
	return c.Index
}

// splitDictionaries returns batch with its dictionary columns decoded
// except the key column, and the key column when it is a dictionary of
// the key's value type (nil otherwise: evaluate the keys on the batch).
func (h *HashAggregate) splitDictionaries(batch arrow.RecordBatch) (arrow.RecordBatch, []arrow.Array, error) {
	keep := -1
	if h.dictKey >= 0 && h.dictKey < int(batch.NumCols()) {
		if d, ok := batch.Column(h.dictKey).(*array.Dictionary); ok &&
			arrow.TypeEqual(d.DataType().(*arrow.DictionaryType).ValueType, h.groupBy[0].Type()) {
			keep = h.dictKey
		}
	}
	plain, err := plainBatch(batch, keep)
	if err != nil || keep < 0 {
		return plain, nil, err
	}
	key := plain.Column(keep)
	key.Retain()
	return plain, []arrow.Array{key}, nil
}
