package catalog

import (
	"fmt"
	"maps"
	"slices"
)

// UpdateTable changes one table under the catalog's locks, on the
// catalog as on disk: fn edits a copy, which replaces the table only
// once saved, so a failed fn or save leaves the table as it was (ALTER
// TABLE is atomic).
func (c *Catalog) UpdateTable(name string, fn func(t *Table) error) error {
	return c.update(func() error {
		k := key(name)
		old, ok := c.tables[k]
		if !ok {
			return &TableNotFoundError{Name: name}
		}
		t := copyTable(old)
		if err := fn(t); err != nil {
			return err
		}
		c.tables[k] = t
		if err := c.saveLocked(); err != nil {
			c.tables[k] = old
			return err
		}
		return nil
	})
}

// RenameTable gives a table a new name, refused when a table or other
// object has it.
func (c *Catalog) RenameTable(from, to string) error {
	if err := checkName(to); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	return c.update(func() error {
		fk, tk := key(from), key(to)
		old, ok := c.tables[fk]
		if !ok {
			return &TableNotFoundError{Name: from}
		}
		if _, ok := c.tables[tk]; ok && tk != fk {
			return fmt.Errorf("table %q %w", to, ErrExists)
		}
		if o, ok := c.objects[tk]; ok {
			return fmt.Errorf("%s %q %w", o.Kind, o.Name, ErrExists)
		}
		t := copyTable(old)
		t.Spec.Name = to
		delete(c.tables, fk)
		c.tables[tk] = t
		if err := c.saveLocked(); err != nil {
			delete(c.tables, tk)
			c.tables[fk] = old
			return err
		}
		return nil
	})
}

// copyTable copies what an ALTER may change (schemas are immutable).
func copyTable(t *Table) *Table {
	c := *t
	c.Properties = maps.Clone(t.Properties)
	c.ColumnComments = maps.Clone(t.ColumnComments)
	c.Spec.Options = maps.Clone(t.Spec.Options)
	c.Spec.PartitionBy = slices.Clone(t.Spec.PartitionBy)
	if t.Watermark != nil {
		w := *t.Watermark
		c.Watermark = &w
	}
	return &c
}

// RenameObject gives an object of kind a new name, refused when a table
// or another object has it.
func (c *Catalog) RenameObject(kind, from, to string, rewrite func(*Object)) error {
	if err := checkName(to); err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	return c.update(func() error {
		fk, tk := key(from), key(to)
		old, ok := c.objects[fk]
		if !ok || old.Kind != kind {
			return fmt.Errorf("%s %q %w", kind, from, ErrNotFound)
		}
		if _, ok := c.tables[tk]; ok {
			return fmt.Errorf("table %q %w", to, ErrExists)
		}
		if o, ok := c.objects[tk]; ok && tk != fk {
			return fmt.Errorf("%s %q %w", o.Kind, o.Name, ErrExists)
		}
		o := *old
		o.Name = to
		rewrite(&o)
		delete(c.objects, fk)
		c.objects[tk] = &o
		if err := c.saveLocked(); err != nil {
			delete(c.objects, tk)
			c.objects[fk] = old
			return err
		}
		return nil
	})
}
