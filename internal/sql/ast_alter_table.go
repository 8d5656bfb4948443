package sql

import "strings"

// AlterAction says what an ALTER TABLE changes.
type AlterAction string

// The ALTER TABLE forms.
const (
	AlterAddColumns    AlterAction = "ADD COLUMNS"
	AlterRename        AlterAction = "RENAME TO"
	AlterSetProperties AlterAction = "SET TBLPROPERTIES"
	AlterUnsetProps    AlterAction = "UNSET TBLPROPERTIES"
	AlterSetLocation   AlterAction = "SET LOCATION"
)

// AlterTable is ALTER TABLE name followed by one of: ADD COLUMNS (col
// type, ...), RENAME TO new, SET TBLPROPERTIES (...), UNSET
// TBLPROPERTIES [IF EXISTS] ('key', ...), SET LOCATION '...'.
type AlterTable struct {
	StmtBase
	Name       string
	Action     AlterAction
	Columns    []*ColumnDef // ADD COLUMNS
	NewName    string       // RENAME TO
	Properties Options      // SET TBLPROPERTIES
	Keys       []string     // UNSET TBLPROPERTIES
	IfExists   bool         // UNSET TBLPROPERTIES IF EXISTS
	Location   string       // SET LOCATION
}

func (*AlterTable) stmtNode() {}

var _ Statement = (*AlterTable)(nil)

func (s *AlterTable) String() string {
	out := "ALTER TABLE " + QuoteName(s.Name) + " " + string(s.Action)
	switch s.Action {
	case AlterAddColumns:
		cols := make([]string, len(s.Columns))
		for i, c := range s.Columns {
			cols[i] = c.String()
		}
		out += " (" + strings.Join(cols, ", ") + ")"
	case AlterRename:
		out += " " + QuoteName(s.NewName)
	case AlterSetProperties:
		out += " " + s.Properties.String()
	case AlterUnsetProps:
		if s.IfExists {
			out += " IF EXISTS"
		}
		keys := make([]string, len(s.Keys))
		for i, k := range s.Keys {
			keys[i] = QuoteString(k)
		}
		out += " (" + strings.Join(keys, ", ") + ")"
	case AlterSetLocation:
		out += " " + QuoteString(RedactText(s.Location))
	}
	return out
}
