package exec

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr"
)

// Project computes one output column per expression. It is stateless, so
// it may run inside scan workers (Scan.Local).
type Project struct {
	Base
	exprs  []expr.Expr
	schema *arrow.Schema
}

var _ Operator = (*Project)(nil)

// NewProject returns a projection; names[i] names exprs[i]'s column.
func NewProject(exprs []expr.Expr, names []string) (*Project, error) {
	if len(exprs) != len(names) {
		return nil, fmt.Errorf("project: %d expressions but %d names", len(exprs), len(names))
	}
	fields := make([]arrow.Field, len(exprs))
	for i, e := range exprs {
		fields[i] = arrow.Field{Name: names[i], Type: e.Type(), Nullable: true}
	}
	return &Project{exprs: exprs, schema: arrow.NewSchema(fields, nil)}, nil
}

// Schema is one column per expression.
func (p *Project) Schema() *arrow.Schema { return p.schema }

// Exprs returns the projected expressions.
func (p *Project) Exprs() []expr.Expr { return p.exprs }

// Process evaluates every expression over the batch. Under a stream's
// row error handler, the rows an expression fails on are bad rows and
// the others go on (isolateRows).
func (p *Project) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	cols, err := p.eval(ctx, batch)
	if err != nil && isRowError(err) {
		kept, ok, ierr := isolateRows(ctx, batch, func(ctx context.Context, row arrow.RecordBatch) error {
			cs, err := p.eval(ctx, row)
			releaseAll(cs)
			return err
		})
		if ok {
			if ierr != nil || kept == nil {
				return ierr
			}
			defer kept.Release()
			batch = kept
			cols, err = p.eval(ctx, kept)
		}
	}
	if err != nil {
		return err
	}
	defer releaseAll(cols)
	res := array.NewRecordBatch(p.schema, cols, batch.NumRows())
	defer res.Release()
	return out.Send(ctx, Message{Batch: res})
}

// eval is one column per expression; nothing to release on error.
func (p *Project) eval(ctx context.Context, batch arrow.RecordBatch) ([]arrow.Array, error) {
	cols := make([]arrow.Array, 0, len(p.exprs))
	for _, e := range p.exprs {
		c, err := e.Eval(ctx, batch)
		if err != nil {
			releaseAll(cols)
			return nil, fmt.Errorf("evaluating %s: %w", e, err)
		}
		cols = append(cols, c)
		if int64(c.Len()) != batch.NumRows() {
			releaseAll(cols)
			return nil, fmt.Errorf("evaluating %s: got %d values for %d rows", e, c.Len(), batch.NumRows())
		}
	}
	return cols, nil
}

// String is the EXPLAIN line: Project [expr AS name, ...].
func (p *Project) String() string {
	parts := make([]string, len(p.exprs))
	for i, e := range p.exprs {
		s := e.String()
		if name := p.schema.Field(i).Name; name != s {
			s += " AS " + name
		}
		parts[i] = s
	}
	return "Project [" + strings.Join(parts, ", ") + "]"
}
