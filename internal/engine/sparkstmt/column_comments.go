package sparkstmt

import (
	"sluice/internal/plan"
)

// sourceComments are, per output column of n, the COMMENT Spark's
// DESCRIBE QUERY and views show: a view column list's, else the one its
// table declared for the column it passes on unchanged; nullCell for a
// computed column or one without a comment.
func (e *Runner) sourceComments(n plan.Node) []string {
	srcs := plan.ColumnSources(n)
	out := make([]string, len(srcs))
	for i, s := range srcs {
		c := s.Comment
		if c == "" && s.Table != "" {
			if t, err := e.catalog.Table(s.Table); err == nil {
				c = columnComment(t, s.Column)
			}
		}
		out[i] = orNull(c)
	}
	return out
}
