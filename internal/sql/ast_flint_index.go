package sql

import "strings"

// SkipColumn is one column of CREATE SKIPPING INDEX: the column, its
// skip type (PARTITION, VALUE_SET, MIN_MAX, BLOOM_FILTER) and the type's
// optional parameters as written (VALUE_SET(20), BLOOM_FILTER(false, 1000)).
type SkipColumn struct {
	At     Pos
	Column string
	Kind   string
	Params []string
}

// CreateSkippingIndex is OpenSearch Flint's CREATE SKIPPING INDEX
// [IF NOT EXISTS] ON table (col skip_type [(params)], ...) [WHERE pred]
// [WITH (options)].
type CreateSkippingIndex struct {
	StmtBase
	IfNotExists bool
	Table       string
	Columns     []SkipColumn
	Where       Expr
	With        Options
}

// CreateCoveringIndex is Flint's CREATE INDEX [IF NOT EXISTS] name ON
// table (col, ...) [WHERE pred] [WITH (options)].
type CreateCoveringIndex struct {
	StmtBase
	IfNotExists bool
	Name        string
	Table       string
	Columns     []string
	Where       Expr
	With        Options
}

// Flint index statement actions on one index.
const (
	IndexRefresh  = "REFRESH"
	IndexDescribe = "DESCRIBE"
	IndexAlter    = "ALTER"
	IndexDrop     = "DROP"
	IndexVacuum   = "VACUUM"
)

// FlintIndexCommand is REFRESH, DESCRIBE, ALTER ... WITH (options), DROP
// or VACUUM of a skipping index (SKIPPING INDEX ON table) or a covering
// index (INDEX name ON table).
type FlintIndexCommand struct {
	StmtBase
	Action string
	// Name is the covering index's name; "" for the skipping index.
	Name  string
	Table string
	With  Options
}

// ShowIndexes is SHOW {INDEX | INDEXES} ON table: the covering indexes
// of a table.
type ShowIndexes struct {
	StmtBase
	Table string
}

// ShowFlintIndexes is SHOW FLINT {INDEX | INDEXES} [EXTENDED] [IN
// catalog[.db]]: every Flint index (skipping, covering, views).
type ShowFlintIndexes struct {
	StmtBase
	Extended bool
	In       string
}

// RecoverIndexJob is RECOVER INDEX JOB name, name being the index's
// Flint name (flint_..._skipping_index).
type RecoverIndexJob struct {
	StmtBase
	Name string
}

// AnalyzeSkippingIndex is ANALYZE SKIPPING INDEX ON table: a skip type
// recommended for each column.
type AnalyzeSkippingIndex struct {
	StmtBase
	Table string
}

func (*CreateSkippingIndex) stmtNode()  {}
func (*CreateCoveringIndex) stmtNode()  {}
func (*FlintIndexCommand) stmtNode()    {}
func (*ShowIndexes) stmtNode()          {}
func (*ShowFlintIndexes) stmtNode()     {}
func (*RecoverIndexJob) stmtNode()      {}
func (*AnalyzeSkippingIndex) stmtNode() {}

var (
	_ Statement = (*CreateSkippingIndex)(nil)
	_ Statement = (*CreateCoveringIndex)(nil)
	_ Statement = (*FlintIndexCommand)(nil)
	_ Statement = (*ShowIndexes)(nil)
	_ Statement = (*ShowFlintIndexes)(nil)
	_ Statement = (*RecoverIndexJob)(nil)
	_ Statement = (*AnalyzeSkippingIndex)(nil)
)

func (c SkipColumn) String() string {
	out := QuoteName(c.Column) + " " + c.Kind
	if len(c.Params) > 0 {
		out += "(" + strings.Join(c.Params, ", ") + ")"
	}
	return out
}

func whereWith(where Expr, with Options) string {
	out := ""
	if where != nil {
		out += " WHERE " + where.String()
	}
	if len(with) > 0 {
		out += " WITH " + with.String()
	}
	return out
}

func (s *CreateSkippingIndex) String() string {
	cols := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		cols[i] = c.String()
	}
	return "CREATE SKIPPING INDEX " + ifNotExists(s.IfNotExists) + "ON " + QuoteName(s.Table) +
		" (" + strings.Join(cols, ", ") + ")" + whereWith(s.Where, s.With)
}

func (s *CreateCoveringIndex) String() string {
	return "CREATE INDEX " + ifNotExists(s.IfNotExists) + QuoteName(s.Name) + " ON " + QuoteName(s.Table) +
		" (" + identList(s.Columns) + ")" + whereWith(s.Where, s.With)
}

func (s *FlintIndexCommand) String() string {
	out := s.Action + " "
	if s.Name == "" {
		out += "SKIPPING INDEX ON " + QuoteName(s.Table)
	} else {
		out += "INDEX " + QuoteName(s.Name) + " ON " + QuoteName(s.Table)
	}
	if s.Action == IndexAlter {
		out += " WITH " + s.With.String()
	}
	return out
}

func (s *ShowIndexes) String() string { return "SHOW INDEXES ON " + QuoteName(s.Table) }

func (s *ShowFlintIndexes) String() string {
	out := "SHOW FLINT INDEXES"
	if s.Extended {
		out += " EXTENDED"
	}
	if s.In != "" {
		out += " IN " + QuoteName(s.In)
	}
	return out
}

func (s *RecoverIndexJob) String() string { return "RECOVER INDEX JOB " + QuoteName(s.Name) }

func (s *AnalyzeSkippingIndex) String() string {
	return "ANALYZE SKIPPING INDEX ON " + QuoteName(s.Table)
}
