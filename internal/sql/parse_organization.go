package sql

// organizationAhead reports whether CLUSTER, DISTRIBUTE or SORT BY starts
// here; none is reserved, so only BY after one makes it a clause.
func (p *parser) organizationAhead() bool {
	return (p.atKw("CLUSTER") || p.atKw("DISTRIBUTE") || p.atKw("SORT")) && isKw(p.peek(1), "BY")
}

// organization reads [CLUSTER BY e, ...] [DISTRIBUTE BY e, ...] [SORT BY
// item, ...] after a query body and its ORDER BY, if any is there. Like
// Spark it refuses them next to ORDER BY and CLUSTER BY next to the
// others.
func (p *parser) organization(q *Query) error {
	if !p.organizationAhead() {
		return nil
	}
	o := &Organization{At: p.tok().pos}
	var err error
	if p.atKw("CLUSTER") && isKw(p.peek(1), "BY") {
		p.advance()
		p.advance()
		if o.ClusterBy, err = p.exprList(); err != nil {
			return err
		}
	}
	if p.atKw("DISTRIBUTE") && isKw(p.peek(1), "BY") {
		p.advance()
		p.advance()
		if o.Distribute, err = p.exprList(); err != nil {
			return err
		}
	}
	if p.atKw("SORT") && isKw(p.peek(1), "BY") {
		if o.SortBy, err = p.orderBy(); err != nil {
			return err
		}
	}
	if len(q.OrderBy) > 0 || len(o.ClusterBy) > 0 && (len(o.Distribute) > 0 || len(o.SortBy) > 0) {
		return errAt(o.At, "combination of ORDER BY/SORT BY/DISTRIBUTE BY/CLUSTER BY is not supported")
	}
	q.Organize = o
	return nil
}
