package sql

import "strings"

// TableCommand is one of Spark's statements that name a table and do
// nothing else: TRUNCATE TABLE, REFRESH TABLE, MSCK REPAIR TABLE, CACHE
// [LAZY] TABLE, UNCACHE TABLE [IF EXISTS], ANALYZE TABLE ... COMPUTE
// STATISTICS [NOSCAN | FOR COLUMNS ...].
type TableCommand struct {
	StmtBase
	Command TableCommandKind
	Name    string
	// Lazy is CACHE LAZY; IfExists is UNCACHE's IF EXISTS; NoScan is
	// ANALYZE's NOSCAN.
	Lazy, IfExists, NoScan bool
	// Columns are ANALYZE's FOR COLUMNS a, b; AllColumns its FOR ALL
	// COLUMNS.
	Columns    []string
	AllColumns bool
}

// TableCommandKind names a TableCommand.
type TableCommandKind string

// The table commands.
const (
	TruncateTable TableCommandKind = "TRUNCATE TABLE"
	RefreshTable  TableCommandKind = "REFRESH TABLE"
	RepairTable   TableCommandKind = "MSCK REPAIR TABLE"
	CacheTable    TableCommandKind = "CACHE TABLE"
	UncacheTable  TableCommandKind = "UNCACHE TABLE"
	AnalyzeTable  TableCommandKind = "ANALYZE TABLE"
)

// ClearCache is CLEAR CACHE.
type ClearCache struct{ StmtBase }

// SetTimeZone is SET TIME ZONE {LOCAL | 'zone' | INTERVAL ...}.
type SetTimeZone struct {
	StmtBase
	Local    bool
	Zone     string   // a zone name or offset
	Interval *Literal // an INTERVAL offset
}

// CreateTableLike is CREATE TABLE [IF NOT EXISTS] name LIKE source
// [USING fmt] [LOCATION '...'] [TBLPROPERTIES (...)].
type CreateTableLike struct {
	StmtBase
	IfNotExists   bool
	Name, Source  string
	Using         string
	Location      string
	TblProperties Options
}

func (*TableCommand) stmtNode()    {}
func (*ClearCache) stmtNode()      {}
func (*SetTimeZone) stmtNode()     {}
func (*CreateTableLike) stmtNode() {}

var (
	_ Statement = (*TableCommand)(nil)
	_ Statement = (*ClearCache)(nil)
	_ Statement = (*SetTimeZone)(nil)
	_ Statement = (*CreateTableLike)(nil)
)

func (s *TableCommand) String() string {
	switch s.Command {
	case CacheTable:
		if s.Lazy {
			return "CACHE LAZY TABLE " + QuoteName(s.Name)
		}
	case UncacheTable:
		return "UNCACHE TABLE " + ifExists(s.IfExists) + QuoteName(s.Name)
	case AnalyzeTable:
		out := "ANALYZE TABLE " + QuoteName(s.Name) + " COMPUTE STATISTICS"
		switch {
		case s.NoScan:
			out += " NOSCAN"
		case s.AllColumns:
			out += " FOR ALL COLUMNS"
		case len(s.Columns) > 0:
			cols := make([]string, len(s.Columns))
			for i, c := range s.Columns {
				cols[i] = QuoteIdent(c)
			}
			out += " FOR COLUMNS " + strings.Join(cols, ", ")
		}
		return out
	}
	return string(s.Command) + " " + QuoteName(s.Name)
}

func (s *ClearCache) String() string { return "CLEAR CACHE" }

func (s *SetTimeZone) String() string {
	switch {
	case s.Local:
		return "SET TIME ZONE LOCAL"
	case s.Interval != nil:
		return "SET TIME ZONE " + s.Interval.String()
	}
	return "SET TIME ZONE " + QuoteString(s.Zone)
}

func (s *CreateTableLike) String() string {
	out := "CREATE TABLE " + ifNotExists(s.IfNotExists) + QuoteName(s.Name) + " LIKE " + QuoteName(s.Source)
	if s.Using != "" {
		out += " USING " + QuoteIdent(s.Using)
	}
	if s.Location != "" {
		out += " LOCATION " + QuoteString(RedactText(s.Location))
	}
	if len(s.TblProperties) > 0 {
		out += " TBLPROPERTIES " + s.TblProperties.String()
	}
	return out
}
