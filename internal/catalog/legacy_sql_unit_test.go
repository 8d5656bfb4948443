package catalog

import "testing"

// TestUpgradeOptionsSQL: of an object's options, only the SQL ones are
// read the old way; other values are data, kept as they are.
func TestUpgradeOptionsSQL(t *testing.T) {
	in := `{"query":"SELECT 'it''s'","options":{"id_expression":"concat(a, '''')","note":"it''s"}}`
	want := `{"options":{"id_expression":"concat(a, '\\'')","note":"it''s"},"query":"SELECT 'it\\'s'"}`
	got, err := upgradeOptionsSQL([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("upgradeOptionsSQL = %s, want %s", got, want)
	}
}
