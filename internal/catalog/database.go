package catalog

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"sluice/internal/usererr"
)

// DefaultDatabase always exists; tables of catalogs written before
// databases existed are in it, under their bare names.
const DefaultDatabase = "default"

// CatalogNames are the catalog parts a qualified name may start with:
// Spark's session catalog, as Spark and Flint documents write it, and
// Sluice's own. Both name the one catalog there is.
var CatalogNames = []string{"spark_catalog", "sluice"}

// Database is one CREATE DATABASE.
type Database struct {
	Name       string            `json:"name"`
	Comment    string            `json:"comment,omitempty"`
	Location   string            `json:"location,omitempty"`
	Properties map[string]string `json:"properties,omitempty"`
	Created    time.Time         `json:"created"`
}

func isCatalogName(s string) bool {
	for _, c := range CatalogNames {
		if strings.EqualFold(c, s) {
			return true
		}
	}
	return false
}

// StoredName is how a table of database db is keyed and named in the
// catalog: its bare name in the default database (so old catalogs load
// as they are), db.name elsewhere. Both are single safe path segments,
// so index folders and checkpoints derived from them stay where they
// belong.
func StoredName(db, name string) string {
	if strings.EqualFold(db, DefaultDatabase) {
		return name
	}
	return strings.ToLower(db) + "." + name
}

// SplitStored undoes StoredName: the database and the table's own name.
func SplitStored(stored string) (db, name string) {
	if i := strings.IndexByte(stored, '.'); i > 0 {
		return stored[:i], stored[i+1:]
	}
	return DefaultDatabase, stored
}

// ResolveDatabaseName reads a database name: db or catalog.db. A lone
// catalog name (Flint's SHOW ... IN spark_catalog) means current.
func ResolveDatabaseName(name, current string) (string, error) {
	parts := strings.Split(name, ".")
	switch len(parts) {
	case 1:
		if isCatalogName(parts[0]) && !strings.EqualFold(parts[0], DefaultDatabase) {
			return current, nil
		}
		return strings.ToLower(parts[0]), nil
	case 2:
		if !isCatalogName(parts[0]) {
			return "", fmt.Errorf("unknown catalog %q in %s (known: %s)", parts[0], name, strings.Join(CatalogNames, ", "))
		}
		return strings.ToLower(parts[1]), nil
	}
	return "", fmt.Errorf("%q is not a database name (want [catalog.]database)", name)
}

// ResolveName turns a name as written (name, db.name or
// catalog.db.name) into its database and stored name, with current as
// the database of an unqualified name. The database must exist.
func (c *Catalog) ResolveName(name, current string) (db, stored string, err error) {
	// A name that could become a path is left whole, not split: CREATE
	// refuses it (safepath.CheckName) and a lookup does not find it.
	if checkName(name) != nil {
		return DefaultDatabase, name, nil
	}
	parts := strings.Split(name, ".")
	var table string
	switch len(parts) {
	case 1:
		db, table = current, parts[0]
	case 2:
		db, table = parts[0], parts[1]
	case 3:
		if !isCatalogName(parts[0]) {
			return "", "", fmt.Errorf("unknown catalog %q in %s (known: %s)", parts[0], name, strings.Join(CatalogNames, ", "))
		}
		db, table = parts[1], parts[2]
	default:
		return "", "", fmt.Errorf("%q is not a table name (want [catalog.][database.]name)", name)
	}
	db = strings.ToLower(db)
	if db == "" {
		db = DefaultDatabase
	}
	if !c.HasDatabase(db) {
		return "", "", fmt.Errorf("database %q %w (in %s)", db, ErrNotFound, name)
	}
	return db, StoredName(db, table), nil
}

// HasDatabase reports whether the database exists.
func (c *Catalog) HasDatabase(name string) bool {
	if strings.EqualFold(name, DefaultDatabase) {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.reloadLocked(); err != nil {
		return false
	}
	_, ok := c.databases[key(name)]
	return ok
}

// Databases lists the databases sorted by name, default included.
func (c *Catalog) Databases() ([]*Database, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.reloadLocked(); err != nil {
		return nil, err
	}
	out := []*Database{{Name: DefaultDatabase}}
	for _, d := range c.databases {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// CreateDatabase adds d. With ifNotExists an existing one is left alone.
func (c *Catalog) CreateDatabase(d *Database, ifNotExists bool) error {
	if err := checkName(d.Name); err != nil {
		return fmt.Errorf("database: %w", err)
	}
	if strings.Contains(d.Name, ".") {
		return fmt.Errorf("database %q: a database name cannot contain '.'", d.Name)
	}
	d.Name = strings.ToLower(d.Name)
	return c.update(func() error {
		if _, ok := c.databases[d.Name]; ok || d.Name == DefaultDatabase {
			if ifNotExists {
				return nil
			}
			return fmt.Errorf("database %q %w", d.Name, ErrExists)
		}
		if d.Created.IsZero() {
			d.Created = time.Now().UTC()
		}
		c.databases[d.Name] = d
		if err := c.saveLocked(); err != nil {
			delete(c.databases, d.Name)
			return err
		}
		return nil
	})
}

// DropDatabase removes an empty database; default cannot be dropped.
func (c *Catalog) DropDatabase(name string, ifExists bool) error {
	name = strings.ToLower(name)
	if name == DefaultDatabase {
		return usererr.Errorf(usererr.Invalid, "database %q cannot be dropped", name)
	}
	return c.update(func() error {
		d, ok := c.databases[name]
		if !ok {
			if ifExists {
				return nil
			}
			return fmt.Errorf("database %q %w", name, ErrNotFound)
		}
		for _, t := range c.tables {
			if db, _ := SplitStored(t.Spec.Name); db == name {
				return fmt.Errorf("database %q is not empty (table %s); use DROP DATABASE %s CASCADE", name, t.Spec.Name, name)
			}
		}
		for _, o := range c.objects {
			if db, _ := SplitStored(o.Name); db == name && o.Kind == "view" {
				return fmt.Errorf("database %q is not empty (view %s); use DROP DATABASE %s CASCADE", name, o.Name, name)
			}
		}
		delete(c.databases, name)
		if err := c.saveLocked(); err != nil {
			c.databases[name] = d
			return err
		}
		return nil
	})
}
