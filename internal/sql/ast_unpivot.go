package sql

import "strings"

// Unpivot is from UNPIVOT [INCLUDE | EXCLUDE NULLS] (v FOR name IN (c1
// [AS a], ...)) [[AS] alias], or with several value columns ((v1, v2) FOR
// name IN ((c1, c2) [AS a], ...)): each input row becomes one row per
// item, its columns' values under ValueColumns and the item's name under
// NameColumn. The other columns are kept.
type Unpivot struct {
	At   Pos
	From TableExpr
	// IncludeNulls keeps the rows whose values are all NULL (EXCLUDE
	// NULLS, the default, drops them); NullsWritten says the clause was
	// spelled out.
	IncludeNulls, NullsWritten bool
	ValueColumns               []string
	NameColumn                 string
	Items                      []*UnpivotItem
	Alias                      string
}

// UnpivotItem is one entry of UNPIVOT's IN list: as many columns as there
// are value columns; Alias is "" when none was written.
type UnpivotItem struct {
	At      Pos
	Columns []*ColumnRef
	Alias   string
}

func (u *Unpivot) Pos() Pos     { return u.At }
func (i *UnpivotItem) Pos() Pos { return i.At }
func (*Unpivot) tableExpr()     {}

var _ TableExpr = (*Unpivot)(nil)

func (u *Unpivot) String() string {
	var b strings.Builder
	b.WriteString(u.From.String())
	b.WriteString(" UNPIVOT ")
	if u.NullsWritten {
		if u.IncludeNulls {
			b.WriteString("INCLUDE NULLS ")
		} else {
			b.WriteString("EXCLUDE NULLS ")
		}
	}
	multi := len(u.ValueColumns) > 1
	b.WriteByte('(')
	if multi {
		b.WriteString("(" + identList(u.ValueColumns) + ")")
	} else {
		b.WriteString(QuoteIdent(u.ValueColumns[0]))
	}
	b.WriteString(" FOR " + QuoteIdent(u.NameColumn) + " IN (")
	for i, it := range u.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		if multi {
			b.WriteByte('(')
		}
		for j, c := range it.Columns {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.String())
		}
		if multi {
			b.WriteByte(')')
		}
		b.WriteString(aliasString(it.Alias))
	}
	b.WriteString("))")
	b.WriteString(aliasString(u.Alias))
	return b.String()
}
