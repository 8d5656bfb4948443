package sql

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Pos is a 1-based line and column in the statement text (columns count
// runes, so a message points where an editor does).
type Pos struct {
	Line, Col int
}

// Node is any syntax tree node. String prints canonical SQL that parses
// back to the same tree (positions aside).
type Node interface {
	Pos() Pos
	String() string
}

// Expr is an unbound expression. Names are not resolved here: the binder
// decides whether a.b is table a's column b or column a's field b.
//
// An expression's Pos is where it starts, except for operators written
// after their first operand (Binary, Is, InList, Between, Like, Subscript,
// FieldAccess and x::t Casts): their Pos is the operator's, which is
// where a type error is best reported.
type Expr interface {
	Node
	exprNode()
	format(b *strings.Builder)
}

// Statement is one top-level statement. Text is its source text, exactly
// as written, without the terminating ';'.
type Statement interface {
	Node
	Text() string
	stmtNode()
}

// QueryBody is the part of a query that produces rows: a *Select, a
// *SetOp (UNION), a *Values, or a parenthesized *Query.
type QueryBody interface {
	Node
	queryBody()
}

// TableExpr is a FROM item: *TableName, *SubqueryTable, *Join,
// *TableFunction, *LateralView, *Pivot or *Unpivot.
type TableExpr interface {
	Node
	tableExpr()
}

// ---------------------------------------------------------------------------
// Expressions

// LitKind says which kind of literal a Literal (or an option value) is.
type LitKind int

// The literal kinds. Value text for each:
//   - LitNull, LitBool: "NULL", "TRUE"/"FALSE" (upper case)
//   - LitInteger: decimal digits, no sign ("42")
//   - LitDecimal: digits with a point ("1.50"); Spark reads these as DECIMAL
//   - LitFloat: a number with an exponent ("1.5e3"); a DOUBLE
//   - LitString, LitDate, LitTimestamp: the unescaped string contents
//   - LitInterval: the interval text, e.g. "5 MINUTES" or "1 hour 30 minutes";
//     Literal.Interval holds its parsed value
//   - LitIdent: only in options, a bare identifier such as json or append
//   - LitBinary: X'0A1B', upper-case hex digits of an even count ("0A1B")
const (
	LitNull LitKind = iota
	LitBool
	LitInteger
	LitDecimal
	LitFloat
	LitString
	LitDate
	LitTimestamp
	LitInterval
	LitIdent
	LitBinary
)

var litKindNames = [...]string{"NULL", "BOOLEAN", "INTEGER", "DECIMAL", "FLOAT", "STRING", "DATE", "TIMESTAMP", "INTERVAL", "IDENT", "BINARY"}

func (k LitKind) String() string {
	if int(k) < len(litKindNames) {
		return litKindNames[k]
	}
	return "LitKind(?)"
}

// Literal is a constant. Value is the text as described at LitKind; the
// binder converts it to a typed value.
type Literal struct {
	At       Pos
	Kind     LitKind
	Value    string
	Interval arrow.MonthDayNanoInterval // only for LitInterval
	// Suffix is a numeric literal's Spark type suffix, upper-cased: L
	// (BIGINT), S (SMALLINT), Y (TINYINT) on a LitInteger; D, F (DOUBLE)
	// on a LitFloat; BD on a LitDecimal. "" for none.
	Suffix string
}

// ColumnRef is a possibly dotted name: a, t.a, geo.city, t.geo.city.
// Parts keep their case as written; back-quotes are removed.
type ColumnRef struct {
	At    Pos
	Parts []string
}

// Star is * or t.* in a select list (Qualifier is nil for a bare *).
// count(*) is a Call with Star set, not a Star argument.
type Star struct {
	At        Pos
	Qualifier []string
}

// Unary operators.
const (
	OpNeg = "-"
	OpPos = "+"
	OpNot = "NOT"
	// OpBitNot is Spark's ~x, the bitwise complement of an integer.
	OpBitNot = "~"
)

// Unary is -x, +x, ~x or NOT x (also written !x).
type Unary struct {
	At Pos
	Op string // OpNeg, OpPos, OpBitNot or OpNot
	X  Expr
}

// Binary operators. == is read as =, != as <>.
const (
	OpAdd    = "+"
	OpSub    = "-"
	OpMul    = "*"
	OpDiv    = "/"
	OpMod    = "%"
	OpConcat = "||"
	OpEq     = "="
	OpNe     = "<>"
	OpLt     = "<"
	OpLe     = "<="
	OpGt     = ">"
	OpGe     = ">="
	// OpNullSafeEq is a <=> b, also spelled a IS NOT DISTINCT FROM b: true
	// when both are NULL, false when only one is.
	OpNullSafeEq = "<=>"
	OpAnd        = "AND"
	OpOr         = "OR"
	// Spark's integer operators: bitwise and, or, xor, the shifts (>>>
	// is the unsigned one) and a DIV b, the integral quotient.
	OpBitAnd     = "&"
	OpBitOr      = "|"
	OpBitXor     = "^"
	OpShiftLeft  = "<<"
	OpShiftRight = ">>"
	OpShiftRU    = ">>>"
	OpIntDiv     = "DIV"
)

// Binary is L op R for arithmetic, comparison, || and AND/OR.
type Binary struct {
	At   Pos
	Op   string // one of the Op constants above
	L, R Expr
}

// IsKind is what an IS test compares with.
type IsKind int

// The IS tests.
const (
	IsNull IsKind = iota
	IsTrue
	IsFalse
)

// Is is x IS [NOT] NULL / TRUE / FALSE.
type Is struct {
	At  Pos
	X   Expr
	Not bool
	Is  IsKind
}

// InList is x [NOT] IN (a, b, ...).
type InList struct {
	At   Pos
	X    Expr
	Not  bool
	List []Expr
}

// Between is x [NOT] BETWEEN Lo AND Hi (inclusive).
type Between struct {
	At     Pos
	X      Expr
	Not    bool
	Lo, Hi Expr
}

// Pattern-matching operators. REGEXP is read as RLIKE.
const (
	OpLike  = "LIKE"
	OpILike = "ILIKE"
	OpRLike = "RLIKE"
)

// Like is x [NOT] LIKE/ILIKE/RLIKE pattern [ESCAPE e]. Escape is nil when
// absent and only allowed with LIKE and ILIKE.
type Like struct {
	At      Pos
	Op      string // OpLike, OpILike or OpRLike
	X       Expr
	Not     bool
	Pattern Expr
	Escape  Expr
}

// When is one WHEN ... THEN ... arm of a Case.
type When struct {
	At   Pos
	Cond Expr
	Then Expr
}

// Case is CASE [Operand] WHEN ... THEN ... [ELSE Else] END. With an
// operand, each When.Cond is a value compared with it; without, a predicate.
type Case struct {
	At      Pos
	Operand Expr // nil for a searched CASE
	Whens   []*When
	Else    Expr // nil when absent
}

// Cast is CAST(x AS t), TRY_CAST(x AS t) or x::t. TRY_CAST yields NULL
// where the conversion fails instead of an error.
type Cast struct {
	At   Pos
	X    Expr
	Type arrow.DataType
	Try  bool
}

// Extract is EXTRACT(field FROM x); Field is upper-cased (YEAR, MONTH,
// DAY, HOUR, MINUTE, SECOND, DOW, ...). The binder validates it.
type Extract struct {
	At    Pos
	Field string
	X     Expr
}

// Call is a function call f(args), count(*) (Star) or count(DISTINCT x).
// Name keeps its case as written; function lookup is case-insensitive.
type Call struct {
	At       Pos
	Name     string
	Args     []Expr
	Distinct bool
	Star     bool
	// IgnoreNulls is IGNORE NULLS after the arguments (lag, lead,
	// first_value, last_value, nth_value).
	IgnoreNulls bool
	// Over is the window of a window function call; nil for others.
	Over *WindowSpec
	// Filter is FILTER (WHERE cond) after an aggregate call: only rows
	// where it is TRUE are aggregated. nil when absent.
	Filter Expr
	// WithinGroup is f(args) WITHIN GROUP (ORDER BY x [DESC]), an
	// ordered-set aggregate (percentile_cont, percentile_disc, mode): x
	// is then Args[0], the written arguments follow, and WithinDesc is
	// the order's DESC.
	WithinGroup bool
	WithinDesc  bool
}

// Subscript is x[i]: an array element (1-based, as in Spark's element_at
// and Flint) or a map value x['k'].
type Subscript struct {
	At    Pos
	X     Expr
	Index Expr
}

// FieldAccess is x.name where x is not a plain name (f(y).city,
// tags[1].name, (s).a). Dotted plain names are a single ColumnRef.
type FieldAccess struct {
	At   Pos
	X    Expr
	Name string
}

func (e *Literal) Pos() Pos     { return e.At }
func (e *ColumnRef) Pos() Pos   { return e.At }
func (e *Star) Pos() Pos        { return e.At }
func (e *Unary) Pos() Pos       { return e.At }
func (e *Binary) Pos() Pos      { return e.At }
func (e *Is) Pos() Pos          { return e.At }
func (e *InList) Pos() Pos      { return e.At }
func (e *Between) Pos() Pos     { return e.At }
func (e *Like) Pos() Pos        { return e.At }
func (e *When) Pos() Pos        { return e.At }
func (e *Case) Pos() Pos        { return e.At }
func (e *Cast) Pos() Pos        { return e.At }
func (e *Extract) Pos() Pos     { return e.At }
func (e *Call) Pos() Pos        { return e.At }
func (e *Subscript) Pos() Pos   { return e.At }
func (e *FieldAccess) Pos() Pos { return e.At }

func (*Literal) exprNode()     {}
func (*ColumnRef) exprNode()   {}
func (*Star) exprNode()        {}
func (*Unary) exprNode()       {}
func (*Binary) exprNode()      {}
func (*Is) exprNode()          {}
func (*InList) exprNode()      {}
func (*Between) exprNode()     {}
func (*Like) exprNode()        {}
func (*Case) exprNode()        {}
func (*Cast) exprNode()        {}
func (*Extract) exprNode()     {}
func (*Call) exprNode()        {}
func (*Subscript) exprNode()   {}
func (*FieldAccess) exprNode() {}

var (
	_ Expr = (*Literal)(nil)
	_ Expr = (*ColumnRef)(nil)
	_ Expr = (*Star)(nil)
	_ Expr = (*Unary)(nil)
	_ Expr = (*Binary)(nil)
	_ Expr = (*Is)(nil)
	_ Expr = (*InList)(nil)
	_ Expr = (*Between)(nil)
	_ Expr = (*Like)(nil)
	_ Expr = (*Case)(nil)
	_ Expr = (*Cast)(nil)
	_ Expr = (*Extract)(nil)
	_ Expr = (*Call)(nil)
	_ Expr = (*Subscript)(nil)
	_ Expr = (*FieldAccess)(nil)
)

// ---------------------------------------------------------------------------
// Queries

// Query is [WITH ctes] body [ORDER BY ...] [LIMIT n] [OFFSET n]. A
// parenthesized query inside a UNION or FROM is a *Query too.
type Query struct {
	At      Pos
	With    []*CTE
	Body    QueryBody
	OrderBy []*OrderItem
	// OrderByAll is ORDER BY ALL: every select-list column, left to
	// right, in its direction (its Expr is nil); OrderBy is then empty.
	OrderByAll *OrderItem
	Limit      Expr // nil when absent
	Offset     Expr // nil when absent
	// Organize is CLUSTER BY, DISTRIBUTE BY and SORT BY; nil when absent.
	Organize *Organization
}

// CTE is one WITH name [(col, ...)] AS (query).
type CTE struct {
	At    Pos
	Name  string
	Query *Query
	// Columns rename the query's columns (WITH t(a, b) AS ...); nil when
	// not written.
	Columns []string
}

// Select is one SELECT block. From is nil for SELECT 1+1.
type Select struct {
	At       Pos
	Distinct bool
	Items    []*SelectItem
	From     TableExpr
	Where    Expr   // nil when absent
	GroupBy  []Expr // an integer Literal here is an ordinal (GROUP BY 1); may hold *GroupingSets
	// GroupByAll is GROUP BY ALL: group by every select item that holds no
	// aggregate (GroupBy is then empty).
	GroupByAll bool
	Having     Expr // nil when absent
	// Windows are the named windows of the WINDOW clause.
	Windows []*NamedWindow
	// Qualify filters rows after the window functions; nil when absent.
	Qualify Expr
}

// SelectItem is expr [AS alias], * or t.* (Expr is a *Star). Alias is ""
// when none was written.
type SelectItem struct {
	At    Pos
	Expr  Expr
	Alias string
	// Aliases are a generator's column names, AS (a, b); Alias is then "".
	Aliases []string
}

// Set operators. MINUS is read as EXCEPT.
const (
	SetUnion     = "UNION"
	SetIntersect = "INTERSECT"
	SetExcept    = "EXCEPT"
)

// SetOp is L op [ALL | DISTINCT] R. All is false for the DISTINCT forms
// (the default), which remove duplicates. INTERSECT binds tighter than
// UNION and EXCEPT, which are left-associative at one level.
type SetOp struct {
	At   Pos
	Op   string // SetUnion, SetIntersect or SetExcept
	All  bool
	L, R QueryBody
}

// Values is VALUES (a, b), (c, d): literal rows, as the source of an
// INSERT or anywhere a query may stand.
type Values struct {
	At   Pos
	Rows [][]Expr
}

// OrderItem is expr [ASC|DESC] [NULLS FIRST|LAST]. NullsFirst is nil when
// not written (the engine then applies Spark's default: NULLS FIRST for
// ASC, NULLS LAST for DESC). An integer Literal is an ordinal.
type OrderItem struct {
	At         Pos
	Expr       Expr
	Desc       bool
	NullsFirst *bool
}

// TableName is a catalog table in FROM, or, with Format set, files read
// directly (Spark's json.`path`): Name is then the path.
type TableName struct {
	At     Pos
	Name   string
	Alias  string
	Format string // json, csv or parquet: a direct file query
	// Columns rename the table's columns (t AS x(a, b)); nil when not
	// written.
	Columns []string
	// Sample is TABLESAMPLE (...) after the name; nil when not written.
	Sample *TableSample
}

// SubqueryTable is (query) [AS] alias [(col, ...)] in FROM; VALUES ...
// written directly in FROM is one too, its Query's body a *Values.
type SubqueryTable struct {
	At    Pos
	Query *Query
	Alias string
	// Columns rename the query's columns (t(a, b)); nil when not written.
	Columns []string
}

// JoinKind is the kind of a Join.
type JoinKind int

// The join kinds. A comma in FROM is a JoinCross.
const (
	JoinInner JoinKind = iota
	JoinLeft
	JoinRight
	JoinFull
	JoinCross
	// JoinSemi keeps the left rows with a match, JoinAnti those without;
	// both give only the left side's columns (LEFT SEMI / LEFT ANTI JOIN).
	JoinSemi
	JoinAnti
)

var joinKindNames = [...]string{"INNER JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN", "LEFT SEMI JOIN", "LEFT ANTI JOIN"}

func (k JoinKind) String() string {
	if int(k) < len(joinKindNames) {
		return joinKindNames[k]
	}
	return "JoinKind(?)"
}

// Join is L kind JOIN R [ON On | USING (Using)]. A CROSS JOIN has neither.
type Join struct {
	At    Pos
	Kind  JoinKind
	L, R  TableExpr
	On    Expr     // nil when absent
	Using []string // nil when absent
	// Natural is NATURAL JOIN: USING the columns both sides have (no ON
	// or USING then).
	Natural bool
}

func (q *Query) Pos() Pos         { return q.At }
func (c *CTE) Pos() Pos           { return c.At }
func (s *Select) Pos() Pos        { return s.At }
func (s *SelectItem) Pos() Pos    { return s.At }
func (s *SetOp) Pos() Pos         { return s.At }
func (v *Values) Pos() Pos        { return v.At }
func (o *OrderItem) Pos() Pos     { return o.At }
func (t *TableName) Pos() Pos     { return t.At }
func (t *SubqueryTable) Pos() Pos { return t.At }
func (j *Join) Pos() Pos          { return j.At }

func (*Query) queryBody()  {}
func (*Select) queryBody() {}
func (*SetOp) queryBody()  {}
func (*Values) queryBody() {}

func (*TableName) tableExpr()     {}
func (*SubqueryTable) tableExpr() {}
func (*Join) tableExpr()          {}

var (
	_ QueryBody = (*Query)(nil)
	_ QueryBody = (*Select)(nil)
	_ QueryBody = (*SetOp)(nil)
	_ QueryBody = (*Values)(nil)
	_ TableExpr = (*TableName)(nil)
	_ TableExpr = (*SubqueryTable)(nil)
	_ TableExpr = (*Join)(nil)
)

// ---------------------------------------------------------------------------
// Options

// Option is one key/value of OPTIONS (...), WITH (...) or SET. Key is as
// written (back-quotes removed, dotted keys joined with '.'); compare it
// case-insensitively. Value.Kind is LitString, LitInteger, LitDecimal,
// LitFloat, LitBool, LitIdent or LitInterval; Value.Value is its text
// (unquoted for strings).
type Option struct {
	At    Pos
	Key   string
	Value *Literal
}

func (o *Option) Pos() Pos { return o.At }

// Options is an ordered option list (order as written).
type Options []*Option

// Get returns the value of key (case-insensitive) and whether it is set.
func (os Options) Get(key string) (*Literal, bool) {
	for _, o := range os {
		if equalFold(o.Key, key) {
			return o.Value, true
		}
	}
	return nil, false
}

// ---------------------------------------------------------------------------
// Statements

// StmtBase carries what every statement has: its position and source text.
type StmtBase struct {
	At  Pos
	Src string
}

func (b *StmtBase) Pos() Pos     { return b.At }
func (b *StmtBase) Text() string { return b.Src }

// SelectStmt is a query run for its rows.
type SelectStmt struct {
	StmtBase
	Query *Query
}

// ColumnDef is name type [NOT NULL] [COMMENT '...'] in CREATE TABLE.
type ColumnDef struct {
	At      Pos
	Name    string
	Type    arrow.DataType
	NotNull bool
	Comment string
}

func (c *ColumnDef) Pos() Pos { return c.At }

// Watermark is WATERMARK FOR col AS expr: rows whose Column is older than
// the largest Expr seen so far are late.
type Watermark struct {
	At     Pos
	Column string
	Expr   Expr
}

func (w *Watermark) Pos() Pos { return w.At }

// CreateTable is CREATE [EXTERNAL] TABLE [IF NOT EXISTS] [catalog.][db.]name [(cols [, WATERMARK])]
// [USING fmt] [LOCATION 'uri'] [PARTITIONED BY (cols)] [OPTIONS (...)]
// [COMMENT '...'] [TBLPROPERTIES (...)] [AS query]. Columns is nil when left out (inferred);
// As is non-nil for CREATE TABLE ... AS SELECT.
type CreateTable struct {
	StmtBase
	// External is CREATE EXTERNAL TABLE; it only documents intent: a table
	// over a LOCATION is external either way, as in Spark.
	External      bool
	IfNotExists   bool
	Name          string
	Columns       []*ColumnDef
	Watermark     *Watermark
	Using         string // "" when absent; as written (json, opensearch, index)
	Location      string
	PartitionedBy []string
	Options       Options
	Comment       string
	// TblProperties are TBLPROPERTIES (...): tags kept with the table.
	TblProperties Options
	As            *Query
}

// DropTable is DROP TABLE [IF EXISTS] name.
type DropTable struct {
	StmtBase
	IfExists bool
	Name     string
}

// ShowTables is SHOW TABLES [IN | FROM [catalog.]db] [[LIKE] 'pattern'].
type ShowTables struct {
	StmtBase
	In   string // "" for the current database
	Like string // Spark's pattern (* and |); "" lists all
}

// DescribeTable is DESCRIBE [EXTENDED | FORMATTED] [TABLE] name [column]
// or DESC name.
type DescribeTable struct {
	StmtBase
	Name string
	// Extended adds Spark's "# Detailed Table Information" section;
	// Formatted is how it was spelled (the same output).
	Extended, Formatted bool
	Column              string // one column's row only
}

// ShowCreateTable is SHOW CREATE TABLE name.
type ShowCreateTable struct {
	StmtBase
	Name string
}

// CreateMaterializedView is CREATE MATERIALIZED VIEW [IF NOT EXISTS] name
// AS query [WITH (options)].
type CreateMaterializedView struct {
	StmtBase
	IfNotExists bool
	Name        string
	Query       *Query
	With        Options
}

// RefreshMaterializedView is REFRESH MATERIALIZED VIEW name.
type RefreshMaterializedView struct {
	StmtBase
	Name string
}

// DropMaterializedView is DROP MATERIALIZED VIEW [IF EXISTS] name.
type DropMaterializedView struct {
	StmtBase
	IfExists bool
	Name     string
}

// AlterMaterializedView is ALTER MATERIALIZED VIEW name WITH (options).
type AlterMaterializedView struct {
	StmtBase
	Name string
	With Options
}

// ShowMaterializedViews is SHOW MATERIALIZED VIEWS [IN [catalog.]db].
type ShowMaterializedViews struct {
	StmtBase
	In string
}

// DescribeMaterializedView is DESCRIBE MATERIALIZED VIEW name.
type DescribeMaterializedView struct {
	StmtBase
	Name string
}

// Explain modes.
const (
	ExplainPlain   = ""
	ExplainAnalyze = "ANALYZE"
	ExplainVerbose = "VERBOSE"
)

// Explain is EXPLAIN [ANALYZE | VERBOSE] statement.
type Explain struct {
	StmtBase
	Mode string
	Stmt Statement
}

// Set is SET key = value or SET key value. Key may be dotted
// (s3.endpoint); Value kinds are as for Option.
type Set struct {
	StmtBase
	Key string
	// Value is nil for SET key, which shows the setting.
	Value *Literal
}

// Reset is RESET key.
type Reset struct {
	StmtBase
	Key string
}

// ShowSettings is SHOW SETTINGS.
type ShowSettings struct{ StmtBase }

func (*SelectStmt) stmtNode()               {}
func (*CreateTable) stmtNode()              {}
func (*DropTable) stmtNode()                {}
func (*ShowTables) stmtNode()               {}
func (*DescribeTable) stmtNode()            {}
func (*ShowCreateTable) stmtNode()          {}
func (*Insert) stmtNode()                   {}
func (*InsertStream) stmtNode()             {}
func (*CreateMaterializedView) stmtNode()   {}
func (*RefreshMaterializedView) stmtNode()  {}
func (*DropMaterializedView) stmtNode()     {}
func (*AlterMaterializedView) stmtNode()    {}
func (*ShowMaterializedViews) stmtNode()    {}
func (*DescribeMaterializedView) stmtNode() {}
func (*ShowStreams) stmtNode()              {}
func (*DescribeStream) stmtNode()           {}
func (*StopStream) stmtNode()               {}
func (*StartStream) stmtNode()              {}
func (*Explain) stmtNode()                  {}
func (*Set) stmtNode()                      {}
func (*Reset) stmtNode()                    {}
func (*ShowSettings) stmtNode()             {}

var (
	_ Statement = (*SelectStmt)(nil)
	_ Statement = (*CreateTable)(nil)
	_ Statement = (*DropTable)(nil)
	_ Statement = (*ShowTables)(nil)
	_ Statement = (*DescribeTable)(nil)
	_ Statement = (*ShowCreateTable)(nil)
	_ Statement = (*Insert)(nil)
	_ Statement = (*InsertStream)(nil)
	_ Statement = (*CreateMaterializedView)(nil)
	_ Statement = (*RefreshMaterializedView)(nil)
	_ Statement = (*DropMaterializedView)(nil)
	_ Statement = (*AlterMaterializedView)(nil)
	_ Statement = (*ShowMaterializedViews)(nil)
	_ Statement = (*DescribeMaterializedView)(nil)
	_ Statement = (*ShowStreams)(nil)
	_ Statement = (*DescribeStream)(nil)
	_ Statement = (*StopStream)(nil)
	_ Statement = (*StartStream)(nil)
	_ Statement = (*Explain)(nil)
	_ Statement = (*Set)(nil)
	_ Statement = (*Reset)(nil)
	_ Statement = (*ShowSettings)(nil)
)
