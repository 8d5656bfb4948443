package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/types"
)

func TestDatabasesPersistAndResolve(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CreateDatabase(&Database{Name: "Web", Properties: map[string]string{"a": "b"}}, false); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateDatabase(&Database{Name: "web"}, false); !errors.Is(err, ErrExists) {
		t.Fatalf("want ErrExists, got %v", err)
	}
	for _, bad := range []string{"a/b", "..", "a.b", ""} {
		if err := c.CreateDatabase(&Database{Name: bad}, false); err == nil {
			t.Errorf("CreateDatabase(%q) succeeded", bad)
		}
	}
	cases := []struct{ name, current, db, stored string }{
		{"t", "default", "default", "t"},
		{"default.t", "web", "default", "t"},
		{"spark_catalog.default.t", "web", "default", "t"},
		{"sluice.web.t", "default", "web", "web.t"},
		{"t", "web", "web", "web.t"},
		{"WEB.t", "default", "web", "web.t"},
	}
	for _, tc := range cases {
		db, stored, err := c.ResolveName(tc.name, tc.current)
		if err != nil || db != tc.db || stored != tc.stored {
			t.Errorf("ResolveName(%q, %q) = %q, %q, %v; want %q, %q", tc.name, tc.current, db, stored, err, tc.db, tc.stored)
		}
	}
	for _, bad := range []string{"nodb.t", "other_catalog.default.t", "a.b.c.d"} {
		if _, _, err := c.ResolveName(bad, "default"); err == nil {
			t.Errorf("ResolveName(%q) succeeded", bad)
		}
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: types.Int, Nullable: true}}, nil)
	if err := c.CreateTable(&Table{Spec: connector.TableSpec{Name: "web.t", Using: "json", Location: "/x", Schema: schema}}, false); err != nil {
		t.Fatal(err)
	}
	if err := c.DropDatabase("web", false); err == nil {
		t.Fatal("dropping a database with a table succeeded")
	}
	c2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	dbs, _ := c2.Databases()
	if len(dbs) != 2 || dbs[0].Name != "default" || dbs[1].Name != "web" || dbs[1].Properties["a"] != "b" {
		t.Fatalf("databases after reopen: %+v", dbs)
	}
	if err := c2.DropTable("web.t", false); err != nil {
		t.Fatal(err)
	}
	if err := c2.DropDatabase("web", false); err != nil {
		t.Fatal(err)
	}
	if c2.HasDatabase("web") {
		t.Fatal("web still exists")
	}
	if err := c2.DropDatabase("default", true); err == nil {
		t.Fatal("dropped default")
	}
}

// TestOldCatalogLoadsInDefault: a catalog.json from before databases has
// its tables in default, under their bare names.
func TestOldCatalogLoadsInDefault(t *testing.T) {
	dir := t.TempDir()
	old := `{"version": 1, "tables": [{"name": "logs", "using": "json", "location": "/x",
	  "schema": [{"name": "a", "type": {"kind": "int"}, "nullable": true}], "created": "2025-01-01T00:00:00Z"}]}`
	if err := os.WriteFile(filepath.Join(dir, fileName), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, stored, err := c.ResolveName("spark_catalog.default.LOGS", "default")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Table(stored); err != nil {
		t.Fatalf("old table not found as %s: %v", stored, err)
	}
}
