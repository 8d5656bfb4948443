package sql

import (
	"strings"

	"sluice/internal/types"
)

func (q *Query) String() string {
	var b strings.Builder
	if len(q.With) > 0 {
		b.WriteString("WITH ")
		for i, c := range q.With {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.String())
		}
		b.WriteByte(' ')
	}
	b.WriteString(bodyString(q.Body))
	if len(q.OrderBy) > 0 {
		b.WriteString(" ORDER BY ")
		for i, o := range q.OrderBy {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(o.String())
		}
	}
	if q.OrderByAll != nil {
		b.WriteString(" ORDER BY ")
		b.WriteString(q.OrderByAll.String())
	}
	if q.Organize != nil {
		b.WriteString(" " + q.Organize.String())
	}
	if q.Limit != nil {
		b.WriteString(" LIMIT " + q.Limit.String())
	}
	if q.Offset != nil {
		b.WriteString(" OFFSET " + q.Offset.String())
	}
	return b.String()
}

// bodyString prints a query body; a nested *Query is parenthesized.
func bodyString(body QueryBody) string {
	if q, ok := body.(*Query); ok {
		return "(" + q.String() + ")"
	}
	return body.String()
}

func (c *CTE) String() string {
	cols := ""
	if len(c.Columns) > 0 {
		cols = "(" + identList(c.Columns) + ")"
	}
	return QuoteName(c.Name) + cols + " AS (" + c.Query.String() + ")"
}

func (s *Select) String() string {
	var b strings.Builder
	b.WriteString("SELECT ")
	if s.Distinct {
		b.WriteString("DISTINCT ")
	}
	for i, it := range s.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(it.String())
	}
	if s.From != nil {
		b.WriteString(" FROM ")
		b.WriteString(s.From.String())
	}
	if s.Where != nil {
		b.WriteString(" WHERE ")
		b.WriteString(s.Where.String())
	}
	if s.GroupByAll {
		b.WriteString(" GROUP BY ALL")
	} else if len(s.GroupBy) > 0 {
		b.WriteString(" GROUP BY ")
		writeList(&b, s.GroupBy)
	}
	if s.Having != nil {
		b.WriteString(" HAVING ")
		b.WriteString(s.Having.String())
	}
	if s.Qualify != nil {
		b.WriteString(" QUALIFY ")
		b.WriteString(s.Qualify.String())
	}
	for i, w := range s.Windows {
		if i == 0 {
			b.WriteString(" WINDOW ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(w.String())
	}
	return b.String()
}

func (s *SelectItem) String() string {
	if len(s.Aliases) > 0 {
		names := make([]string, len(s.Aliases))
		for i, a := range s.Aliases {
			names[i] = QuoteIdent(a)
		}
		return s.Expr.String() + " AS (" + strings.Join(names, ", ") + ")"
	}
	if s.Alias == "" {
		return s.Expr.String()
	}
	return s.Expr.String() + " AS " + QuoteIdent(s.Alias)
}

func (s *SetOp) String() string {
	op := s.Op
	if s.All {
		op += " ALL"
	}
	// Set operations are left-associative and INTERSECT binds tightest: a
	// child keeps parentheses unless the parse alone would rebuild it.
	l, r := bodyString(s.L), bodyString(s.R)
	if c, ok := s.L.(*SetOp); ok && s.Op == SetIntersect && c.Op != SetIntersect {
		l = "(" + l + ")"
	}
	if c, ok := s.R.(*SetOp); ok && !(c.Op == SetIntersect && s.Op != SetIntersect) {
		r = "(" + r + ")"
	}
	return l + " " + op + " " + r
}

func (v *Values) String() string {
	var b strings.Builder
	b.WriteString("VALUES ")
	for i, row := range v.Rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		writeList(&b, row)
		b.WriteByte(')')
	}
	return b.String()
}

func (o *OrderItem) String() string {
	s := "ALL" // ORDER BY ALL's item
	if o.Expr != nil {
		s = o.Expr.String()
	}
	if o.Desc {
		s += " DESC"
	}
	if o.NullsFirst != nil {
		if *o.NullsFirst {
			s += " NULLS FIRST"
		} else {
			s += " NULLS LAST"
		}
	}
	return s
}

func aliasString(a string) string {
	if a == "" {
		return ""
	}
	return " AS " + QuoteIdent(a)
}

func (t *TableName) String() string {
	s := QuoteName(t.Name)
	if t.Format != "" {
		s = t.Format + "." + QuoteIdent(t.Name)
	}
	if t.Sample != nil {
		s += " " + t.Sample.String()
	}
	s += aliasString(t.Alias)
	if len(t.Columns) > 0 {
		s += "(" + identList(t.Columns) + ")"
	}
	return s
}

func (t *SubqueryTable) String() string {
	s := "(" + t.Query.String() + ")" + aliasString(t.Alias)
	if len(t.Columns) > 0 {
		s += "(" + identList(t.Columns) + ")"
	}
	return s
}

func (j *Join) String() string {
	var b strings.Builder
	// A LATERAL VIEW ends a FROM list, so one inside a join is
	// parenthesized.
	if _, ok := j.L.(*LateralView); ok {
		b.WriteString("(" + j.L.String() + ")")
	} else {
		b.WriteString(j.L.String())
	}
	b.WriteByte(' ')
	if j.Natural {
		b.WriteString("NATURAL ")
	}
	b.WriteString(j.Kind.String())
	b.WriteByte(' ')
	// Joins are left-associative; a join on the right needs parentheses.
	switch j.R.(type) {
	case *Join, *LateralView:
		b.WriteString("(" + j.R.String() + ")")
	default:
		b.WriteString(j.R.String())
	}
	if j.On != nil {
		b.WriteString(" ON ")
		b.WriteString(j.On.String())
	}
	if j.Using != nil {
		b.WriteString(" USING (" + identList(j.Using) + ")")
	}
	return b.String()
}

func identList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = QuoteIdent(n)
	}
	return strings.Join(q, ", ")
}

// String prints key = value, the value redacted (RedactValue: '***' for
// a secret-looking key, URL user info hidden) so EXPLAIN and logs never
// show a credential.
func (o *Option) String() string {
	if o.Value.Kind == LitString {
		if r := RedactValue(o.Key, o.Value.Value); r != o.Value.Value {
			v := *o.Value // a copy: the statement keeps its real value
			v.Value = r
			return optionKey(o.Key) + " = " + v.String()
		}
	}
	if o.Value.Kind == LitString {
		if r := RedactURL(o.Value.Value); r != o.Value.Value {
			return optionKey(o.Key) + " = " + QuoteString(r)
		}
	}
	return optionKey(o.Key) + " = " + o.Value.String()
}

// secretWords mark option keys whose values are credentials.
var secretWords = []string{"password", "passwd", "secret", "token", "credential", "access_key", "accesskey", "api_key", "apikey", "private_key", "auth"}

// IsSecretKey reports whether an option key names a credential
// (secret_access_key, password, session_token, ...), whose value must not
// be printed.
func IsSecretKey(key string) bool {
	k := strings.ToLower(key)
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// optionKey prints a key; dotted keys print as written (s3.endpoint) when
// each part is a plain identifier, else back-quoted whole.
func optionKey(k string) string {
	parts := strings.Split(k, ".")
	for _, p := range parts {
		if p == "" || QuoteIdent(p) != p {
			return "`" + strings.ReplaceAll(k, "`", "``") + "`"
		}
	}
	return k
}

func (os Options) String() string {
	q := make([]string, len(os))
	for i, o := range os {
		q[i] = o.String()
	}
	return "(" + strings.Join(q, ", ") + ")"
}

func (s *SelectStmt) String() string { return s.Query.String() }

func (c *ColumnDef) String() string {
	s := QuoteName(c.Name) + " " + types.SQLName(c.Type)
	if c.NotNull {
		s += " NOT NULL"
	}
	if c.Comment != "" {
		s += " COMMENT " + QuoteString(c.Comment)
	}
	return s
}

func (w *Watermark) String() string {
	return "WATERMARK FOR " + QuoteIdent(w.Column) + " AS " + w.Expr.String()
}

func (c *CreateTable) String() string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if c.External {
		b.WriteString("EXTERNAL ")
	}
	b.WriteString("TABLE ")
	if c.IfNotExists {
		b.WriteString("IF NOT EXISTS ")
	}
	b.WriteString(QuoteName(c.Name))
	if c.Columns != nil || c.Watermark != nil {
		b.WriteString(" (")
		for i, col := range c.Columns {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(col.String())
		}
		if c.Watermark != nil {
			if len(c.Columns) > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.Watermark.String())
		}
		b.WriteByte(')')
	}
	if c.Using != "" {
		b.WriteString(" USING " + QuoteIdent(c.Using))
	}
	if c.Location != "" {
		b.WriteString(" LOCATION " + QuoteString(RedactText(c.Location)))
	}
	if len(c.PartitionedBy) > 0 {
		b.WriteString(" PARTITIONED BY (" + identList(c.PartitionedBy) + ")")
	}
	if len(c.Options) > 0 {
		b.WriteString(" OPTIONS " + c.Options.String())
	}
	if c.Comment != "" {
		b.WriteString(" COMMENT " + QuoteString(c.Comment))
	}
	if len(c.TblProperties) > 0 {
		b.WriteString(" TBLPROPERTIES " + c.TblProperties.String())
	}
	if c.As != nil {
		b.WriteString(" AS " + c.As.String())
	}
	return b.String()
}

func ifExists(b bool) string {
	if b {
		return "IF EXISTS "
	}
	return ""
}

func ifNotExists(b bool) string {
	if b {
		return "IF NOT EXISTS "
	}
	return ""
}

func (s *DropTable) String() string { return "DROP TABLE " + ifExists(s.IfExists) + QuoteName(s.Name) }
func (s *ShowTables) String() string {
	out := "SHOW TABLES"
	if s.In != "" {
		out += " IN " + QuoteName(s.In)
	}
	if s.Like != "" {
		out += " LIKE " + QuoteString(s.Like)
	}
	return out
}
func (s *DescribeTable) String() string {
	// Spark's order: TABLE before EXTENDED.
	out := "DESCRIBE TABLE "
	switch {
	case s.Formatted:
		out += "FORMATTED "
	case s.Extended:
		out += "EXTENDED "
	}
	out += QuoteName(s.Name)
	if s.Column != "" {
		out += " " + QuoteName(s.Column)
	}
	return out
}
func (s *ShowCreateTable) String() string { return "SHOW CREATE TABLE " + QuoteName(s.Name) }

func (s *Insert) String() string {
	var b strings.Builder
	if s.Overwrite {
		b.WriteString("INSERT OVERWRITE TABLE ")
	} else {
		b.WriteString("INSERT INTO ")
	}
	b.WriteString(QuoteName(s.Table))
	if s.Partition != nil {
		parts := make([]string, len(s.Partition))
		for i, pv := range s.Partition {
			parts[i] = QuoteIdent(pv.Column)
			if pv.Value != nil {
				parts[i] += " = " + pv.Value.String()
			}
		}
		b.WriteString(" PARTITION (" + strings.Join(parts, ", ") + ")")
	}
	if s.Columns != nil {
		b.WriteString(" (" + identList(s.Columns) + ")")
	}
	if s.ByName {
		b.WriteString(" BY NAME")
	}
	b.WriteString(" " + s.Query.String())
	return b.String()
}

func (s *InsertStream) String() string {
	var b strings.Builder
	b.WriteString("INSERT STREAM INTO ")
	b.WriteString(QuoteName(s.Table))
	if s.Columns != nil {
		b.WriteString(" (" + identList(s.Columns) + ")")
	}
	b.WriteString(" " + s.Query.String())
	if len(s.With) > 0 {
		b.WriteString(" WITH " + s.With.String())
	}
	return b.String()
}

func (s *CreateMaterializedView) String() string {
	out := "CREATE MATERIALIZED VIEW " + ifNotExists(s.IfNotExists) + QuoteName(s.Name) + " AS " + s.Query.String()
	if len(s.With) > 0 {
		out += " WITH " + s.With.String()
	}
	return out
}

func (s *RefreshMaterializedView) String() string {
	return "REFRESH MATERIALIZED VIEW " + QuoteName(s.Name)
}

func (s *DropMaterializedView) String() string {
	return "DROP MATERIALIZED VIEW " + ifExists(s.IfExists) + QuoteName(s.Name)
}

func (s *AlterMaterializedView) String() string {
	return "ALTER MATERIALIZED VIEW " + QuoteName(s.Name) + " WITH " + s.With.String()
}

func (s *ShowMaterializedViews) String() string {
	if s.In != "" {
		return "SHOW MATERIALIZED VIEWS IN " + QuoteName(s.In)
	}
	return "SHOW MATERIALIZED VIEWS"
}

func (s *DescribeMaterializedView) String() string {
	return "DESCRIBE MATERIALIZED VIEW " + QuoteName(s.Name)
}

func (s *ShowStreams) String() string    { return "SHOW STREAMS" }
func (s *DescribeStream) String() string { return "DESCRIBE STREAM " + QuoteName(s.Name) }
func (s *StopStream) String() string     { return "STOP STREAM " + QuoteName(s.Name) }
func (s *StartStream) String() string    { return "START STREAM " + QuoteName(s.Name) }

func (s *Explain) String() string {
	if s.Mode == "" {
		return "EXPLAIN " + s.Stmt.String()
	}
	return "EXPLAIN " + s.Mode + " " + s.Stmt.String()
}

func (s *Set) String() string {
	if s.Value == nil {
		return "SET " + optionKey(s.Key)
	}
	return "SET " + (&Option{Key: s.Key, Value: s.Value}).String()
}
func (s *Reset) String() string {
	if s.Key == "" {
		return "RESET"
	}
	return "RESET " + optionKey(s.Key)
}
func (s *ShowSettings) String() string { return "SHOW SETTINGS" }
