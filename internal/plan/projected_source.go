package plan

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/connector"
)

// projectedSource narrows a source that cannot project by itself: it
// reads every column and drops the unwanted ones per batch.
type projectedSource struct {
	connector.Source
	idx    []int
	schema *arrow.Schema
}

var _ connector.Source = (*projectedSource)(nil)

func newProjectedSource(src connector.Source, names []string) (*projectedSource, error) {
	in := src.Schema()
	p := &projectedSource{Source: src}
	fs := make([]arrow.Field, len(names))
	for i, n := range names {
		found := in.FieldIndices(n)
		if len(found) == 0 {
			return nil, fmt.Errorf("source has no column %q", n)
		}
		p.idx = append(p.idx, found[0])
		fs[i] = in.Field(found[0])
	}
	p.schema = arrow.NewSchema(fs, nil)
	return p, nil
}

func (p *projectedSource) Schema() *arrow.Schema { return p.schema }

func (p *projectedSource) Open(ctx context.Context, s connector.Split) (connector.RecordReader, error) {
	r, err := p.Source.Open(ctx, s)
	if err != nil {
		return nil, err
	}
	return &projectedReader{RecordReader: r, p: p}, nil
}

// Describe passes the wrapped source's description through.
func (p *projectedSource) Describe() string {
	if d, ok := p.Source.(connector.Describer); ok {
		return d.Describe()
	}
	return "source"
}

type projectedReader struct {
	connector.RecordReader
	p *projectedSource
}

func (r *projectedReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := r.RecordReader.Next(ctx)
	if err != nil {
		return nil, err
	}
	cols := make([]arrow.Array, len(r.p.idx))
	for i, j := range r.p.idx {
		cols[i] = b.Column(j)
	}
	return array.NewRecordBatch(r.p.schema, cols, b.NumRows()), nil
}
