package sql

import "testing"

// TestParseOneAt: a statement parsed where it sits in a script reports
// the script's positions, on its first line (shifted by the column it
// starts at) and on the lines after (not).
func TestParseOneAt(t *testing.T) {
	_, err := ParseOneAt("SELECT\n  1 +", Pos{Line: 6, Col: 11})
	if got, want := errString(err), "syntax error at line 7:6: expected expression but found end of input"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	_, err = ParseOneAt("SELEC 1", Pos{Line: 3, Col: 5})
	if got, want := errString(err), "syntax error at line 3:5: expected a statement but found 'SELEC'"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	st, err := ParseOneAt("SELECT x FROM t", Pos{Line: 4, Col: 2})
	if err != nil {
		t.Fatal(err)
	}
	q := st.(*SelectStmt).Query
	if p := q.Body.(*Select).Items[0].Expr.Pos(); p != (Pos{Line: 4, Col: 9}) {
		t.Errorf("x at %v, want 4:9", p)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
