package sql

// CreateDatabase is CREATE {DATABASE | SCHEMA} [IF NOT EXISTS] name
// [COMMENT '...'] [LOCATION '...'] [WITH DBPROPERTIES (...)]. Name may
// be catalog.db.
type CreateDatabase struct {
	StmtBase
	IfNotExists bool
	Name        string
	Comment     string
	Location    string
	Properties  Options
}

// DropDatabase is DROP {DATABASE | SCHEMA} [IF EXISTS] name
// [RESTRICT | CASCADE].
type DropDatabase struct {
	StmtBase
	IfExists bool
	Name     string
	Cascade  bool
}

// UseDatabase is USE [DATABASE] name: the database unqualified names
// resolve in.
type UseDatabase struct {
	StmtBase
	Name string
}

// ShowDatabases is SHOW {DATABASES | SCHEMAS} [LIKE 'pattern'].
type ShowDatabases struct {
	StmtBase
	Like string
}

// ShowTblProperties is SHOW TBLPROPERTIES name [('key')].
type ShowTblProperties struct {
	StmtBase
	Name string
	Key  string
}

// VacuumMaterializedView is VACUUM MATERIALIZED VIEW name (Flint's
// physical delete after DROP).
type VacuumMaterializedView struct {
	StmtBase
	Name string
}

func (*CreateDatabase) stmtNode()         {}
func (*DropDatabase) stmtNode()           {}
func (*UseDatabase) stmtNode()            {}
func (*ShowDatabases) stmtNode()          {}
func (*ShowTblProperties) stmtNode()      {}
func (*VacuumMaterializedView) stmtNode() {}

var (
	_ Statement = (*CreateDatabase)(nil)
	_ Statement = (*DropDatabase)(nil)
	_ Statement = (*UseDatabase)(nil)
	_ Statement = (*ShowDatabases)(nil)
	_ Statement = (*ShowTblProperties)(nil)
	_ Statement = (*VacuumMaterializedView)(nil)
)

func (s *CreateDatabase) String() string {
	out := "CREATE DATABASE " + ifNotExists(s.IfNotExists) + QuoteName(s.Name)
	if s.Comment != "" {
		out += " COMMENT " + QuoteString(s.Comment)
	}
	if s.Location != "" {
		out += " LOCATION " + QuoteString(s.Location)
	}
	if len(s.Properties) > 0 {
		out += " WITH DBPROPERTIES " + s.Properties.String()
	}
	return out
}

func (s *DropDatabase) String() string {
	out := "DROP DATABASE " + ifExists(s.IfExists) + QuoteName(s.Name)
	if s.Cascade {
		out += " CASCADE"
	}
	return out
}

func (s *UseDatabase) String() string { return "USE " + QuoteName(s.Name) }

func (s *ShowDatabases) String() string {
	if s.Like != "" {
		return "SHOW DATABASES LIKE " + QuoteString(s.Like)
	}
	return "SHOW DATABASES"
}

func (s *ShowTblProperties) String() string {
	out := "SHOW TBLPROPERTIES " + QuoteName(s.Name)
	if s.Key != "" {
		out += " (" + QuoteString(s.Key) + ")"
	}
	return out
}

func (s *VacuumMaterializedView) String() string {
	return "VACUUM MATERIALIZED VIEW " + QuoteName(s.Name)
}

// DescribeDatabase is DESCRIBE {DATABASE | SCHEMA | NAMESPACE} [EXTENDED]
// name.
type DescribeDatabase struct {
	StmtBase
	Name     string
	Extended bool
}

// ShowCatalogs is SHOW CATALOGS [[LIKE] 'pattern'].
type ShowCatalogs struct {
	StmtBase
	Like string
}

// ShowCurrentNamespace is SHOW CURRENT NAMESPACE.
type ShowCurrentNamespace struct{ StmtBase }

func (*DescribeDatabase) stmtNode()     {}
func (*ShowCatalogs) stmtNode()         {}
func (*ShowCurrentNamespace) stmtNode() {}

var (
	_ Statement = (*DescribeDatabase)(nil)
	_ Statement = (*ShowCatalogs)(nil)
	_ Statement = (*ShowCurrentNamespace)(nil)
)

func (s *DescribeDatabase) String() string {
	out := "DESCRIBE DATABASE "
	if s.Extended {
		out += "EXTENDED "
	}
	return out + QuoteName(s.Name)
}

func (s *ShowCatalogs) String() string {
	if s.Like != "" {
		return "SHOW CATALOGS LIKE " + QuoteString(s.Like)
	}
	return "SHOW CATALOGS"
}

func (*ShowCurrentNamespace) String() string { return "SHOW CURRENT NAMESPACE" }
