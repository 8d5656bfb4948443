package sparkstmt

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// DescribeView lists a view's columns as its query binds now; EXTENDED
// adds Spark's "# Detailed Table Information" rows of a view.
func (e *Runner) DescribeView(ctx context.Context, v *View, s *sql.DescribeTable) (*Result, error) {
	n, err := e.viewNode(ctx, v)
	if err != nil {
		return nil, fmt.Errorf("DESCRIBE %s: %w", v.Name, err)
	}
	fields, comments := n.Schema().Fields(), e.sourceComments(n)
	if s.Column != "" {
		for _, f := range fields {
			if strings.EqualFold(f.Name, s.Column) {
				return describeColumn(&catalog.Table{}, f, s.Extended), nil
			}
		}
		return nil, usererr.Errorf(usererr.NotFound, "DESCRIBE %s: no column %s", v.Name, s.Column)
	}
	var rows [][]string
	for i, f := range fields {
		rows = append(rows, []string{f.Name, types.CatalogString(f.Type), comments[i]})
	}
	if s.Extended && !v.Temporary { // Spark lists a temporary view's columns only
		rows = append(rows, []string{"", "", ""}, []string{"# Detailed Table Information", "", ""})
		for _, d := range viewDetail(v) {
			rows = append(rows, []string{d[0], d[1], ""})
		}
	}
	return stringRows([]string{"col_name", "data_type", "comment"}, rows), nil
}

// viewFields are a view's columns as its query binds now.
func (e *Runner) viewFields(ctx context.Context, v *View) ([]arrow.Field, error) {
	n, err := e.viewNode(ctx, v)
	if err != nil {
		return nil, err
	}
	return n.Schema().Fields(), nil
}

// viewNode is a view's query bound as it would be read now.
func (e *Runner) viewNode(ctx context.Context, v *View) (plan.Node, error) {
	name := v.Name
	if !v.Temporary {
		db, own := catalog.SplitStored(v.Name)
		name = db + "." + own
	}
	return plan.NewBinder(ctx, e.h.Tables()).BindQuery(viewQuery(name))
}

// viewDetail are Spark's "# Detailed Table Information" rows of a view.
func viewDetail(v *View) [][2]string {
	db, own := "", v.Name
	if !v.Temporary {
		db, own = catalog.SplitStored(v.Name)
	}
	detail := [][2]string{
		{"Catalog", catalog.CatalogNames[0]},
		{"Database", db},
		{"Table", own},
		{"Created Time", sparkTime(v.Created)},
		{"Last Access", "UNKNOWN"},
		{"Created By", createdBy},
		{"Type", "VIEW"}, // a temporary one too, as in Spark
	}
	if v.Stmt.Comment != "" {
		detail = append(detail, [2]string{"Comment", v.Stmt.Comment})
	}
	text := v.Stmt.Query.String()
	detail = append(detail, [2]string{"View Text", text})
	if !v.Temporary { // Spark keeps no original text of a temporary view
		detail = append(detail, [2]string{"View Original Text", text})
	}
	return append(detail,
		[2]string{"View Catalog and Namespace", catalog.CatalogNames[0] + "." + v.Database},
		[2]string{"View Query Output Columns", "[" + strings.Join(v.Output, ", ") + "]"})
}

// ShowCreateView is SHOW CREATE TABLE of a stored view, in Spark's
// layout: the view's columns as its query binds now, its comment, then
// its query. A temporary view is refused, as in Spark: it is no
// catalog object to recreate.
func (e *Runner) ShowCreateView(ctx context.Context, v *View) (*Result, error) {
	if v.Temporary {
		return nil, usererr.Errorf(usererr.Invalid, "SHOW CREATE TABLE %s: it is a temporary view, which has no stored definition", v.Name)
	}
	db, own := catalog.SplitStored(v.Name)
	n, err := plan.NewBinder(ctx, e.h.Tables()).BindQuery(viewQuery(db + "." + own))
	if err != nil {
		return nil, fmt.Errorf("SHOW CREATE TABLE %s: %w", v.Name, err)
	}
	var cols []string
	for _, f := range n.Schema().Fields() {
		cols = append(cols, types.QuoteIdent(f.Name))
	}
	var b strings.Builder
	b.WriteString("CREATE VIEW " + sql.QuoteName(db+"."+own) + " (\n  " + strings.Join(cols, ",\n  ") + ")\n")
	if v.Stmt.Comment != "" {
		b.WriteString("COMMENT " + quoteString(v.Stmt.Comment) + "\n")
	}
	b.WriteString("AS " + v.Stmt.Query.String() + "\n")
	return stringRows([]string{"createtab_stmt"}, [][]string{{b.String()}}), nil
}
