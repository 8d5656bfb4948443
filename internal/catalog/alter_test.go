package catalog

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// TestUpdateTableAllOrNothing: a failed change leaves the table as it
// was, on disk and in memory; a good one is there after reopening.
func TestUpdateTableAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: types.Int, Nullable: true}}, nil)
	if err := c.CreateTable(&Table{Spec: connector.TableSpec{Name: "t", Using: "json", Location: "/a", Schema: schema}, Properties: map[string]string{"k": "v"}}, false); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err = c.UpdateTable("t", func(t *Table) error {
		t.Properties["k"] = "changed"
		t.Spec.Location = "/b"
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("UpdateTable = %v, want boom", err)
	}
	if got, _ := c.Table("t"); got.Properties["k"] != "v" || got.Spec.Location != "/a" {
		t.Errorf("a failed update changed the table: %+v", got)
	}
	if err := c.UpdateTable("t", func(t *Table) error { t.Spec.Location = "/b"; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := c.RenameTable("t", "u"); err != nil {
		t.Fatal(err)
	}
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := again.Table("u")
	if err != nil || got.Spec.Location != "/b" || got.Spec.Name != "u" {
		t.Fatalf("after reopening: %+v, %v", got, err)
	}
	if _, err := again.Table("t"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the old name is still there: %v", err)
	}
}

// TestRenameTableRefusesTakenNames: a table, stream or view of the new
// name is never replaced.
func TestRenameTableRefusesTakenNames(t *testing.T) {
	c, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: types.Int, Nullable: true}}, nil)
	for _, n := range []string{"a", "b"} {
		if err := c.CreateTable(&Table{Spec: connector.TableSpec{Name: n, Using: "json", Location: "/" + n, Schema: schema}}, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.PutObject(&Object{Kind: "stream", Name: "s", SQL: "INSERT STREAM INTO b SELECT * FROM a"}, false); err != nil {
		t.Fatal(err)
	}
	for _, to := range []string{"b", "s"} {
		if err := c.RenameTable("a", to); !errors.Is(err, ErrExists) {
			t.Errorf("RenameTable(a, %s) = %v, want ErrExists", to, err)
		}
	}
}
