package sql

// DescribeFunction is DESCRIBE FUNCTION [EXTENDED] name.
type DescribeFunction struct {
	StmtBase
	Name     string
	Extended bool
}

// ShowFunctions is SHOW [USER | SYSTEM | ALL] FUNCTIONS [[LIKE] 'pattern'].
type ShowFunctions struct {
	StmtBase
	Scope string // "", "USER", "SYSTEM" or "ALL"
	Like  string
}

// ShowColumns is SHOW COLUMNS {IN | FROM} table [{IN | FROM} db].
type ShowColumns struct {
	StmtBase
	Table string
}

// ShowPartitions is SHOW PARTITIONS table: the key=value folders of a
// partitioned file table.
type ShowPartitions struct {
	StmtBase
	Table string
}

// ShowTableExtended is SHOW TABLE EXTENDED [IN db] LIKE 'pattern'.
type ShowTableExtended struct {
	StmtBase
	In   string
	Like string
}

func (*DescribeFunction) stmtNode()  {}
func (*ShowFunctions) stmtNode()     {}
func (*ShowColumns) stmtNode()       {}
func (*ShowPartitions) stmtNode()    {}
func (*ShowTableExtended) stmtNode() {}

var (
	_ Statement = (*DescribeFunction)(nil)
	_ Statement = (*ShowFunctions)(nil)
	_ Statement = (*ShowColumns)(nil)
	_ Statement = (*ShowPartitions)(nil)
	_ Statement = (*ShowTableExtended)(nil)
)

func (s *DescribeFunction) String() string {
	out := "DESCRIBE FUNCTION "
	if s.Extended {
		out += "EXTENDED "
	}
	return out + QuoteName(s.Name)
}

func (s *ShowFunctions) String() string {
	out := "SHOW "
	if s.Scope != "" {
		out += s.Scope + " "
	}
	out += "FUNCTIONS"
	if s.Like != "" {
		out += " LIKE " + QuoteString(s.Like)
	}
	return out
}

func (s *ShowColumns) String() string    { return "SHOW COLUMNS IN " + QuoteName(s.Table) }
func (s *ShowPartitions) String() string { return "SHOW PARTITIONS " + QuoteName(s.Table) }

func (s *ShowTableExtended) String() string {
	out := "SHOW TABLE EXTENDED"
	if s.In != "" {
		out += " IN " + QuoteName(s.In)
	}
	return out + " LIKE " + QuoteString(s.Like)
}

// DescribeQuery is Spark's DESCRIBE [QUERY] query: the query's columns
// and their types, without running it.
type DescribeQuery struct {
	StmtBase
	Query *Query
}

func (*DescribeQuery) stmtNode() {}

var _ Statement = (*DescribeQuery)(nil)

func (s *DescribeQuery) String() string { return "DESCRIBE QUERY " + s.Query.String() }
