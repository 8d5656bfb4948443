package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"sluice/internal/connector"
)

// fileFormat is the on-disk layout of catalog.json. Version guards
// against a newer binary's catalog being misread by an older one.
type fileFormat struct {
	Version int         `json:"version"`
	Tables  []tableJSON `json:"tables"`
	Objects []*Object   `json:"objects,omitempty"`
	// Databases other than default (absent from older catalogs).
	Databases []*Database `json:"databases,omitempty"`
}

type tableJSON struct {
	Name        string            `json:"name"`
	Using       string            `json:"using"`
	Location    string            `json:"location,omitempty"`
	Options     map[string]string `json:"options,omitempty"`
	Schema      schemaJSON        `json:"schema"`
	PartitionBy []string          `json:"partition_by,omitempty"`
	Watermark   *Watermark        `json:"watermark,omitempty"`
	Comment     string            `json:"comment,omitempty"`
	Properties  map[string]string `json:"properties,omitempty"`
	Inferred    bool              `json:"inferred,omitempty"`
	Managed     bool              `json:"managed,omitempty"`
	Dynamic     bool              `json:"dynamic,omitempty"`
	Created     time.Time         `json:"created"`
}

const formatVersion = 1

// reloadLocked re-reads the file when another process changed it, so two
// invocations sharing a data directory see each other's tables.
func (c *Catalog) reloadLocked() error {
	if c.path == "" {
		return nil
	}
	return c.load()
}

func (c *Catalog) load() error {
	data, err := os.ReadFile(c.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var f fileFormat
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("corrupt catalog file: %w", err)
	}
	if f.Version > formatVersion {
		return fmt.Errorf("catalog version %d is newer than this build understands (%d)", f.Version, formatVersion)
	}
	tables := map[string]*Table{}
	for _, tj := range f.Tables {
		s, err := decodeSchema(tj.Schema)
		if err != nil {
			return fmt.Errorf("table %s: %w", tj.Name, err)
		}
		tables[key(tj.Name)] = &Table{
			Spec: connector.TableSpec{Name: tj.Name, Using: tj.Using, Location: tj.Location,
				Options: tj.Options, Schema: s, PartitionBy: tj.PartitionBy},
			Watermark: tj.Watermark, Comment: tj.Comment, Properties: tj.Properties, Inferred: tj.Inferred, Managed: tj.Managed, Dynamic: tj.Dynamic, Created: tj.Created,
		}
	}
	objects := map[string]*Object{}
	for _, o := range f.Objects {
		objects[key(o.Name)] = o
	}
	databases := map[string]*Database{}
	for _, d := range f.Databases {
		databases[key(d.Name)] = d
	}
	c.tables, c.objects, c.databases = tables, objects, databases
	return nil
}

func (c *Catalog) saveLocked() error {
	if c.path == "" {
		return nil
	}
	f := fileFormat{Version: formatVersion}
	for _, t := range c.tables {
		s, err := encodeSchema(t.Spec.Schema)
		if err != nil {
			return fmt.Errorf("saving table %s: %w", t.Spec.Name, err)
		}
		f.Tables = append(f.Tables, tableJSON{Name: t.Spec.Name, Using: t.Spec.Using,
			Location: t.Spec.Location, Options: t.Spec.Options, Schema: s,
			PartitionBy: t.Spec.PartitionBy, Watermark: t.Watermark, Comment: t.Comment, Properties: t.Properties,
			Inferred: t.Inferred, Managed: t.Managed, Dynamic: t.Dynamic, Created: t.Created})
	}
	for _, o := range c.objects {
		f.Objects = append(f.Objects, o)
	}
	for _, d := range c.databases {
		f.Databases = append(f.Databases, d)
	}
	sort.Slice(f.Databases, func(i, j int) bool { return f.Databases[i].Name < f.Databases[j].Name })
	sortTables(f.Tables)
	sortObjects(f.Objects)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("saving catalog: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), ".catalog-*.tmp")
	if err != nil {
		return fmt.Errorf("saving catalog: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("saving catalog: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("saving catalog: %w", err)
	}
	tmp.Close()
	if err := os.Rename(tmp.Name(), c.path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving catalog: %w", err)
	}
	return nil
}
