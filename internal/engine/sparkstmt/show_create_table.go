package sparkstmt

import (
	"fmt"
	"sort"
	"strings"

	"sluice/internal/sql"
	"sluice/internal/types"
)

func (e *Runner) ShowCreateTable(name string) (*Result, error) {
	t, err := e.catalog.Table(name)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (", sql.QuoteName(t.Spec.Name))
	for i, f := range t.Spec.Schema.Fields() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", types.QuoteIdent(f.Name), types.SQLName(f.Type))
		if c := columnComment(t, f.Name); c != "" {
			b.WriteString(" COMMENT " + quoteString(c))
		}
	}
	if t.Watermark != nil {
		fmt.Fprintf(&b, ", WATERMARK FOR %s AS %s", types.QuoteIdent(t.Watermark.Column), t.Watermark.Expr)
	}
	fmt.Fprintf(&b, ") USING %s", t.Spec.Using)
	if t.Spec.Location != "" {
		fmt.Fprintf(&b, " LOCATION %s", quoteString(sql.RedactText(t.Spec.Location)))
	}
	if len(t.Spec.PartitionBy) > 0 {
		fmt.Fprintf(&b, " PARTITIONED BY (%s)", strings.Join(t.Spec.PartitionBy, ", "))
	}
	if len(t.Spec.Options) > 0 {
		keys := make([]string, 0, len(t.Spec.Options))
		for k := range t.Spec.Options {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s %s", types.QuoteIdent(k), quoteString(redact(k, t.Spec.Options[k])))
		}
		fmt.Fprintf(&b, " OPTIONS (%s)", strings.Join(parts, ", "))
	}
	if t.Comment != "" {
		fmt.Fprintf(&b, " COMMENT %s", quoteString(t.Comment))
	}
	if len(t.Properties) > 0 {
		fmt.Fprintf(&b, " TBLPROPERTIES (%s)", propertyList(t.Properties))
	}
	return stringRows([]string{"createtab_stmt"}, [][]string{{b.String()}}), nil
}

// propertyList prints TBLPROPERTIES sorted by key, secrets redacted.
func propertyList(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = quoteString(k) + " = " + quoteString(redact(k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func quoteString(s string) string { return sql.QuoteString(s) }
