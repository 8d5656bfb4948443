// Package catalog keeps the names Sluice knows (tables, streams,
// materialized views) with their schemas and connector options, persisted
// as one JSON file in the data directory so a second invocation sees what
// the first created.
//
//	cat, _ := catalog.Open("./sluice-data")
//	_ = cat.CreateTable(&catalog.Table{Spec: connector.TableSpec{Name: "logs", Using: "json",
//		Location: "/var/logs", Schema: schema}}, false)
//	t, _ := cat.Table("LOGS") // names are case-insensitive
package catalog

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/safepath"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// Sentinel errors; messages name the object. Both are user errors
// (usererr.NotFound, usererr.Exists).
var (
	ErrNotFound = usererr.New(usererr.NotFound, "not found")
	ErrExists   = usererr.New(usererr.Exists, "already exists")
)

// Watermark is a table's event-time declaration:
// WATERMARK FOR col AS col - INTERVAL ...
type Watermark struct {
	Column string `json:"column"`
	// Expr is the watermark expression's SQL text.
	Expr string `json:"expr"`
}

// Table is one CREATE TABLE.
type Table struct {
	Spec      connector.TableSpec
	Watermark *Watermark
	Comment   string
	// ColumnComments are the columns' COMMENT '...' texts by column name
	// as declared; a column without one is absent.
	ColumnComments map[string]string
	// Properties are the table's TBLPROPERTIES: tags, not read by Sluice.
	Properties map[string]string
	// Inferred is true when the schema was sampled rather than declared.
	Inferred bool
	// Managed is true when Sluice chose where the table's data lives (a
	// local index under the data dir, a materialized view's sink): DROP
	// then removes the data too. Tables over a user-given location are
	// external: DROP forgets them and leaves the data alone.
	Managed bool
	// Dynamic is true when the table's columns come from what is written
	// to it, as OpenSearch's dynamic mapping: a search table declared
	// without columns starts with none and INSERTs add new ones.
	Dynamic bool
	// Pending names the process (Owner) whose statement creating the
	// table has not finished: a CTAS before its first write commits, a
	// materialized view's sink before its view is made. Empty once done;
	// a table still pending when its process is gone is undone at the
	// next start (DDL is atomic, kill -9 included).
	Pending string
	Created time.Time
	// Stats are what ANALYZE TABLE found last (nil: never analyzed, or
	// written to since): shown by DESCRIBE EXTENDED, not used to plan.
	Stats *TableStats
}

// TableStats are a table's statistics as of its last ANALYZE TABLE, in
// Spark's terms.
type TableStats struct {
	SizeBytes int64 `json:"size_bytes"`
	// Rows is absent after ANALYZE ... NOSCAN.
	Rows *int64 `json:"rows,omitempty"`
	// Columns are FOR COLUMNS' statistics by column name.
	Columns  map[string]ColumnStats `json:"columns,omitempty"`
	Analyzed time.Time              `json:"analyzed"`
}

// ColumnStats are one column's statistics; an empty string is one not
// computed for the column's type (min and max of a string), shown NULL.
type ColumnStats struct {
	Min           string `json:"min,omitempty"`
	Max           string `json:"max,omitempty"`
	NumNulls      int64  `json:"num_nulls"`
	DistinctCount int64  `json:"distinct_count"`
	AvgLen        int64  `json:"avg_len"`
	MaxLen        int64  `json:"max_len"`
}

// Object is a named definition other than a table: a stream or a
// materialized view. Its body is owned by the package that runs it.
type Object struct {
	Kind    string          `json:"kind"`
	Name    string          `json:"name"`
	SQL     string          `json:"sql"`
	Options json.RawMessage `json:"options,omitempty"`
	// Pending is Table.Pending for an object: the Owner whose statement
	// creating it has not finished.
	Pending string    `json:"pending,omitempty"`
	Created time.Time `json:"created"`
}

// Catalog is safe for concurrent use within a process. Writes replace the
// file atomically (temporary file, then rename).
type Catalog struct {
	mu        sync.Mutex
	path      string
	tables    map[string]*Table
	objects   map[string]*Object
	databases map[string]*Database
	// secrets is the secrets store as last read or written (secrets.go);
	// plain is set when the catalog.json read holds secret values (a file
	// from before the store), which Open moves out.
	secrets map[string]string
	plain   bool
	// locked: this handle holds the file lock (update), under c.mu.
	locked bool
}

const fileName = "catalog.json"

// Open loads the catalog from dir, creating dir if needed. An empty dir
// ("") gives an in-memory catalog that is never saved.
func Open(dir string) (*Catalog, error) {
	c := &Catalog{tables: map[string]*Table{}, objects: map[string]*Object{}, databases: map[string]*Database{}}
	if dir == "" {
		return c, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("opening catalog: %w", err)
	}
	c.path = filepath.Join(dir, fileName)
	if err := c.load(); err != nil {
		return nil, fmt.Errorf("opening catalog %s: %w", c.path, err)
	}
	if c.plain {
		err := c.update(func() error {
			if !c.plain {
				return nil
			}
			return c.saveLocked()
		})
		if err != nil {
			return nil, fmt.Errorf("opening catalog %s: moving its secrets to %s: %w", c.path, SecretsFile, err)
		}
	}
	return c, nil
}

func key(name string) string { return strings.ToLower(name) }

// Table returns the named table or an error wrapping ErrNotFound.
func (c *Catalog) Table(name string) (*Table, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.reloadLocked(); err != nil {
		return nil, err
	}
	t, ok := c.tables[key(name)]
	if !ok {
		return nil, &TableNotFoundError{Name: name}
	}
	return t, nil
}

// Tables lists the tables sorted by name.
func (c *Catalog) Tables() ([]*Table, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.reloadLocked(); err != nil {
		return nil, err
	}
	out := make([]*Table, 0, len(c.tables))
	for _, t := range c.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i].Spec.Name) < key(out[j].Spec.Name) })
	return out, nil
}

// CreateTable adds t. With ifNotExists an existing table is left alone
// and no error returned.
func (c *Catalog) CreateTable(t *Table, ifNotExists bool) error {
	if err := checkName(t.Spec.Name); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	return c.update(func() error {
		k := key(t.Spec.Name)
		if _, ok := c.tables[k]; ok {
			if ifNotExists {
				return nil
			}
			return fmt.Errorf("table %q %w", t.Spec.Name, ErrExists)
		}
		if o, ok := c.objects[k]; ok && o.Kind != "mview" {
			return fmt.Errorf("%s %q %w", o.Kind, o.Name, ErrExists)
		}
		if t.Created.IsZero() {
			t.Created = time.Now().UTC()
		}
		c.tables[k] = t
		if err := c.saveLocked(); err != nil {
			delete(c.tables, k)
			return err
		}
		return nil
	})
}

// CompleteTable marks a pending table done (Table.Pending).
func (c *Catalog) CompleteTable(name string) error {
	return c.update(func() error {
		t, ok := c.tables[key(name)]
		if !ok {
			return &TableNotFoundError{Name: name}
		}
		if t.Pending == "" {
			return nil
		}
		was := t.Pending
		t.Pending = ""
		if err := c.saveLocked(); err != nil {
			t.Pending = was
			return err
		}
		return nil
	})
}

// AddColumns appends to a dynamic table the fields it does not have yet
// (names compare case-insensitively), on the catalog as on disk, so two
// writers adding columns at once both keep theirs. A field that exists
// with another type is an error naming it.
func (c *Catalog) AddColumns(name string, fields []arrow.Field) error {
	return c.update(func() error {
		t, ok := c.tables[key(name)]
		if !ok {
			return &TableNotFoundError{Name: name}
		}
		var have []arrow.Field
		if t.Spec.Schema != nil {
			have = t.Spec.Schema.Fields()
		}
		next := append([]arrow.Field(nil), have...)
		for _, f := range fields {
			found := false
			for _, h := range have {
				if strings.EqualFold(h.Name, f.Name) {
					if !arrow.TypeEqual(h.Type, f.Type) {
						return usererr.Errorf(usererr.Invalid, "table %s: column %s is %s, not %s", t.Spec.Name, h.Name, types.SQLName(h.Type), types.SQLName(f.Type))
					}
					found = true
					break
				}
			}
			if !found {
				next = append(next, f)
			}
		}
		if len(next) == len(have) {
			return nil
		}
		old := t.Spec.Schema
		t.Spec.Schema = arrow.NewSchema(next, nil)
		if err := c.saveLocked(); err != nil {
			t.Spec.Schema = old
			return err
		}
		return nil
	})
}

// DropTable removes the named table.
func (c *Catalog) DropTable(name string, ifExists bool) error {
	return c.update(func() error {
		k := key(name)
		t, ok := c.tables[k]
		if !ok {
			if ifExists {
				return nil
			}
			return &TableNotFoundError{Name: name}
		}
		delete(c.tables, k)
		if err := c.saveLocked(); err != nil {
			c.tables[k] = t
			return err
		}
		return nil
	})
}

// Object returns the named object of the given kind.
func (c *Catalog) Object(kind, name string) (*Object, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.reloadLocked(); err != nil {
		return nil, err
	}
	o, ok := c.objects[key(name)]
	if !ok || o.Kind != kind {
		return nil, fmt.Errorf("%s %q %w", kind, name, ErrNotFound)
	}
	return o, nil
}

// Objects lists the objects of a kind sorted by name.
func (c *Catalog) Objects(kind string) ([]*Object, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.reloadLocked(); err != nil {
		return nil, err
	}
	var out []*Object
	for _, o := range c.objects {
		if o.Kind == kind {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i].Name) < key(out[j].Name) })
	return out, nil
}

// sharedNamespace explains a clash between kinds: streams, views and
// tables of a database share one set of names, which a user naming a
// stream after its sink table does not expect.
func sharedNamespace(kind, taken string) string {
	if kind == taken {
		return ""
	}
	return fmt.Sprintf(" (a %s cannot take the name of a %s: tables, views and streams share one namespace)", kindWord(kind), kindWord(taken))
}

func kindWord(k string) string {
	if k == "mview" {
		return "materialized view"
	}
	return k
}

// PutObject creates or (replace) updates an object.
func (c *Catalog) PutObject(o *Object, replace bool) error {
	// Names become folder names (indexes, checkpoints): refuse the ones
	// that could point anywhere else.
	if err := checkName(o.Name); err != nil {
		return fmt.Errorf("%s: %w", o.Kind, err)
	}
	return c.update(func() error {
		k := key(o.Name)
		// A materialized view owns the table of its name (its sink).
		if _, ok := c.tables[k]; ok && o.Kind != "mview" {
			return fmt.Errorf("table %q %w%s", o.Name, ErrExists, sharedNamespace(o.Kind, "table"))
		}
		old, ok := c.objects[k]
		// Replacing is of an object of the same kind: a view's OR REPLACE
		// never removes a stream.
		if ok && (!replace || old.Kind != o.Kind) {
			return fmt.Errorf("%s %q %w%s", old.Kind, o.Name, ErrExists, sharedNamespace(o.Kind, old.Kind))
		}
		if o.Created.IsZero() {
			o.Created = time.Now().UTC()
		}
		c.objects[k] = o
		if err := c.saveLocked(); err != nil {
			if ok {
				c.objects[k] = old
			} else {
				delete(c.objects, k)
			}
			return err
		}
		return nil
	})
}

// DropObject removes an object of the given kind.
func (c *Catalog) DropObject(kind, name string, ifExists bool) error {
	return c.update(func() error {
		k := key(name)
		o, ok := c.objects[k]
		if !ok || o.Kind != kind {
			if ifExists {
				return nil
			}
			return fmt.Errorf("%s %q %w", kind, name, ErrNotFound)
		}
		delete(c.objects, k)
		if err := c.saveLocked(); err != nil {
			c.objects[k] = o
			return err
		}
		return nil
	})
}

// update runs a change under the process lock and the data directory's
// file lock, on the catalog as currently on disk; fn saves what it
// changed.
func (c *Catalog) update(fn func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	unlock, err := c.lockFile()
	if err != nil {
		return err
	}
	defer unlock()
	c.locked = true
	defer func() { c.locked = false }()
	if err := c.reloadLocked(); err != nil {
		return err
	}
	return fn()
}

// checkName is safepath.CheckName, its refusal a user error.
func checkName(name string) error {
	return usererr.Wrap(usererr.Invalid, safepath.CheckName(name))
}
