package sql

import "strings"

// CreateView is CREATE [OR REPLACE] [TEMPORARY] VIEW [IF NOT EXISTS]
// name [(col [COMMENT '...'], ...)] [COMMENT '...'] AS query: a logical
// view, expanded where a query names it.
type CreateView struct {
	StmtBase
	OrReplace, Temporary, IfNotExists bool
	Name                              string
	Columns                           []string
	// ColumnComments are the COMMENTs of Columns, "" for none; nil when
	// no column has one.
	ColumnComments []string
	Comment        string
	Query          *Query
}

// AlterView is ALTER VIEW name RENAME TO new_name (NewName set) or
// ALTER VIEW name AS query (Query set), Spark's two forms.
type AlterView struct {
	StmtBase
	Name, NewName string
	Query         *Query
}

// DropView is DROP VIEW [IF EXISTS] name.
type DropView struct {
	StmtBase
	IfExists bool
	Name     string
}

// ShowViews is SHOW VIEWS [{IN | FROM} db] [[LIKE] 'pattern'].
type ShowViews struct {
	StmtBase
	In   string
	Like string
}

func (*CreateView) stmtNode() {}
func (*DropView) stmtNode()   {}
func (*AlterView) stmtNode()  {}
func (*ShowViews) stmtNode()  {}

var (
	_ Statement = (*CreateView)(nil)
	_ Statement = (*DropView)(nil)
	_ Statement = (*ShowViews)(nil)
)

func (s *CreateView) String() string {
	out := "CREATE "
	if s.OrReplace {
		out += "OR REPLACE "
	}
	if s.Temporary {
		out += "TEMPORARY "
	}
	out += "VIEW " + ifNotExists(s.IfNotExists) + QuoteName(s.Name)
	if len(s.Columns) > 0 {
		cols := make([]string, len(s.Columns))
		for i, c := range s.Columns {
			cols[i] = QuoteIdent(c)
			if i < len(s.ColumnComments) && s.ColumnComments[i] != "" {
				cols[i] += " COMMENT " + QuoteString(s.ColumnComments[i])
			}
		}
		out += " (" + strings.Join(cols, ", ") + ")"
	}
	if s.Comment != "" {
		out += " COMMENT " + QuoteString(s.Comment)
	}
	return out + " AS " + s.Query.String()
}

func (s *AlterView) String() string {
	if s.Query != nil {
		return "ALTER VIEW " + QuoteName(s.Name) + " AS " + s.Query.String()
	}
	return "ALTER VIEW " + QuoteName(s.Name) + " RENAME TO " + QuoteName(s.NewName)
}

func (s *DropView) String() string { return "DROP VIEW " + ifExists(s.IfExists) + QuoteName(s.Name) }

func (s *ShowViews) String() string {
	out := "SHOW VIEWS"
	if s.In != "" {
		out += " IN " + QuoteName(s.In)
	}
	if s.Like != "" {
		out += " LIKE " + QuoteString(s.Like)
	}
	return out
}
