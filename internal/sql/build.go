package sql

// Constructors for the queries the engine makes itself (a covering
// index's, a skipping index's, a view wrapped for its id_expression).
// Building the tree directly, instead of writing SQL text and parsing it
// back, leaves no quoting to get wrong and keeps the positions of the
// user's own expressions (a WHERE, an id_expression) where the user wrote
// them; built nodes have no position (Pos{}), so an error about one names
// no place in text that was never written. String prints any of them as
// SQL that parses back to the same tree.

// NewQuery is a query of just body: no WITH, ORDER BY or LIMIT.
func NewQuery(body QueryBody) *Query { return &Query{Body: body} }

// NewSelect is SELECT items FROM from; set Where on the result for a
// WHERE clause.
func NewSelect(from TableExpr, items ...*SelectItem) *Select {
	return &Select{Items: items, From: from}
}

// Item is a select item without an alias.
func Item(e Expr) *SelectItem { return &SelectItem{Expr: e} }

// Alias is the select item e AS name.
func Alias(e Expr, name string) *SelectItem { return &SelectItem{Expr: e, Alias: name} }

// AllColumns is the select item *.
func AllColumns() *SelectItem { return &SelectItem{Expr: &Star{}} }

// Col is a reference to the column name: one part, however it is
// spelled (a name with a dot in it is one column, not a field access).
func Col(name string) *ColumnRef { return &ColumnRef{Parts: []string{name}} }

// NewCall is the function call name(args...).
func NewCall(name string, args ...Expr) *Call { return &Call{Name: name, Args: args} }

// StringLit is the string literal s.
func StringLit(s string) *Literal { return &Literal{Kind: LitString, Value: s} }

// CountAll is count(*).
func CountAll() *Call { return &Call{Name: "count", Star: true} }

// TableRef is the catalog table name in FROM, as the parser keeps it:
// its parts joined with '.' (db.t).
func TableRef(name string) *TableName { return &TableName{Name: name} }

// SubqueryFrom is (q) AS alias in FROM.
func SubqueryFrom(q *Query, alias string) *SubqueryTable {
	return &SubqueryTable{Query: q, Alias: alias}
}
