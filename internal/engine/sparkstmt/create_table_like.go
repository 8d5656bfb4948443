package sparkstmt

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// CreateTableLike runs CREATE TABLE t LIKE src [USING fmt] [LOCATION
// '...'] [TBLPROPERTIES (...)] as Spark does: t gets src's columns (with
// their comments), partitioning, watermark and, when the format stays,
// its options; not its data, comment or properties. Without LOCATION a
// file table is managed, under the data dir. A table over an OpenSearch
// index is refused: its copy would share the index.
func (e *Runner) CreateTableLike(ctx context.Context, s *sql.CreateTableLike) (*Result, error) {
	src, err := e.h.Qualify(ctx, s.Source)
	if err != nil {
		return nil, fmt.Errorf("CREATE TABLE %s LIKE: %w", s.Name, err)
	}
	name, err := e.h.Qualify(ctx, s.Name)
	if err != nil {
		return nil, fmt.Errorf("CREATE TABLE %s LIKE: %w", s.Name, err)
	}
	t, err := e.catalog.Table(src)
	if err != nil {
		if v, _ := e.h.StoredView(src); v != nil {
			return nil, usererr.Errorf(usererr.Invalid, "CREATE TABLE %s LIKE %s: it is a view; CREATE TABLE %s AS SELECT * FROM %s copies its rows too", s.Name, s.Source, s.Name, s.Source)
		}
		return nil, fmt.Errorf("CREATE TABLE %s LIKE: %w", s.Name, e.h.SuggestTable(ctx, s.Source, err))
	}
	if strings.EqualFold(t.Spec.Using, "opensearch") {
		return nil, usererr.Errorf(usererr.Invalid, "CREATE TABLE %s LIKE %s: %s is over an OpenSearch index, which its copy would share; declare the table with its own index option", s.Name, s.Source, s.Source)
	}
	c := &sql.CreateTable{IfNotExists: s.IfNotExists, Name: name, Using: t.Spec.Using, Location: s.Location,
		PartitionedBy: t.Spec.PartitionBy, TblProperties: s.TblProperties}
	if s.Using != "" && !strings.EqualFold(s.Using, t.Spec.Using) {
		c.Using = s.Using
	} else {
		for k, v := range t.Spec.Options {
			if !strings.EqualFold(k, "path") {
				c.Options = append(c.Options, &sql.Option{Key: k, Value: sql.StringLit(v)})
			}
		}
	}
	for _, f := range t.Spec.Schema.Fields() {
		c.Columns = append(c.Columns, &sql.ColumnDef{Name: f.Name, Type: f.Type, NotNull: !f.Nullable, Comment: columnComment(t, f.Name)})
	}
	if t.Watermark != nil {
		wm, err := sql.ParseExpr(t.Watermark.Expr)
		if err != nil {
			return nil, fmt.Errorf("CREATE TABLE %s LIKE %s: its watermark: %w", s.Name, s.Source, err)
		}
		c.Watermark = &sql.Watermark{Column: t.Watermark.Column, Expr: wm}
	}
	msg, err := e.h.CreateTable(ctx, c)
	if err != nil {
		return nil, err
	}
	return &Result{Message: msg}, nil
}
