package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	"sluice/internal/connector"
	"sluice/internal/formatver"
)

// fileFormat is the on-disk layout of catalog.json. Version guards
// against a newer binary's catalog being misread by an older one: 1, or
// 2 when it names values in the secrets store (secrets.go), which a
// build before the store would take for the values themselves, or 3
// when it holds SQL text, written in Spark's string escaping
// (legacy_sql.go), which a build before it would misread.
type fileFormat struct {
	Version int `json:"version"`
	// Reader is the oldest binary that reads Version
	// (formatver.Catalog), so that an older one can name it in its refusal.
	Reader  string      `json:"format_reader,omitempty"`
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
	// ColumnComments are absent from catalogs written before them: an
	// older binary ignores them (and drops them when it writes).
	ColumnComments map[string]string `json:"column_comments,omitempty"`
	Properties     map[string]string `json:"properties,omitempty"`
	Inferred       bool              `json:"inferred,omitempty"`
	Managed        bool              `json:"managed,omitempty"`
	Dynamic        bool              `json:"dynamic,omitempty"`
	Pending        string            `json:"pending,omitempty"`
	Created        time.Time         `json:"created"`
	// Stats are absent from catalogs written before ANALYZE TABLE: an
	// older binary ignores them (and drops them when it writes).
	Stats *TableStats `json:"stats,omitempty"`
}

// reloadLocked re-reads the file when another process changed it, so two
// invocations sharing a data directory see each other's tables.
func (c *Catalog) reloadLocked() error {
	if c.path == "" {
		return nil
	}
	return c.load()
}

func (c *Catalog) load() error {
	// A writer replaces secrets.json after catalog.json when it dropped
	// secrets (storeSecrets): a catalog.json read just before may name
	// one the store read after no longer has. Reading both again finds
	// the pair that goes together; past a few tries, under the file lock
	// writers hold (unless this is a writer, which holds it already).
	for try := 0; ; try++ {
		missing, err := c.loadOnce()
		if err != nil || missing == "" {
			return err
		}
		if try == 4 && !c.locked {
			unlock, err := c.lockFile()
			if err != nil {
				return err
			}
			missing, err = c.loadOnce()
			unlock()
			if err != nil || missing == "" {
				return err
			}
		}
		if try >= 4 {
			return fmt.Errorf("secret %q named in %s is missing from %s", missing, fileName, SecretsFile)
		}
	}
}

// loadOnce reads catalog.json and the secrets store; missing is a secret
// the catalog names that the store does not have (nothing is loaded then).
func (c *Catalog) loadOnce() (missing string, err error) {
	data, err := os.ReadFile(c.path)
	if errors.Is(err, os.ErrNotExist) {
		secrets, err := c.readSecrets()
		if err == nil {
			c.secrets = secrets
		}
		return "", err
	}
	if err != nil {
		return "", err
	}
	var f fileFormat
	if err := json.Unmarshal(data, &f); err != nil {
		return "", fmt.Errorf("corrupt catalog file: %w", err)
	}
	if err := formatver.Catalog.CheckVersion(fileName, f.Version, f.Reader); err != nil {
		return "", err
	}
	secrets, err := c.readSecrets()
	if err != nil {
		return "", err
	}
	op := &opener{in: secrets, refs: f.Version >= secretsVersion}
	tables := map[string]*Table{}
	for _, tj := range f.Tables {
		s, err := decodeSchema(tj.Schema)
		if err != nil {
			return "", fmt.Errorf("table %s: %w", tj.Name, err)
		}
		op.values(tj.Options)
		op.values(tj.Properties)
		op.values(tj.ColumnComments)
		if tj.Watermark != nil && f.Version < sparkQuotesVersion {
			tj.Watermark.Expr = upgradeSQL(tj.Watermark.Expr)
		}
		tables[key(tj.Name)] = &Table{
			Spec: connector.TableSpec{Name: tj.Name, Using: tj.Using, Location: op.value("", "location", tj.Location),
				Options: tj.Options, Schema: s, PartitionBy: tj.PartitionBy},
			Watermark: tj.Watermark, Comment: op.value("", "comment", tj.Comment), ColumnComments: tj.ColumnComments, Properties: tj.Properties, Inferred: tj.Inferred, Managed: tj.Managed, Dynamic: tj.Dynamic, Pending: tj.Pending, Created: tj.Created, Stats: tj.Stats,
		}
	}
	objects := map[string]*Object{}
	for _, o := range f.Objects {
		o.SQL = op.value("", "sql", o.SQL)
		if o.Options, err = op.json(o.Options); err != nil {
			return "", fmt.Errorf("%s %s: options: %w", o.Kind, o.Name, err)
		}
		if f.Version < sparkQuotesVersion {
			o.SQL = upgradeSQL(o.SQL)
			if o.Options, err = upgradeOptionsSQL(o.Options); err != nil {
				return "", fmt.Errorf("%s %s: options: %w", o.Kind, o.Name, err)
			}
		}
		objects[key(o.Name)] = o
	}
	databases := map[string]*Database{}
	for _, d := range f.Databases {
		d.Location = op.value("", "location", d.Location)
		d.Comment = op.value("", "comment", d.Comment)
		op.values(d.Properties)
		databases[key(d.Name)] = d
	}
	if op.missing != "" {
		return op.missing, nil
	}
	c.tables, c.objects, c.databases = tables, objects, databases
	c.secrets, c.plain = secrets, op.plain
	return "", nil
}

// saveLocked writes catalog.json with every secret value replaced by a
// reference, and the secrets store with the values (secrets.go).
func (c *Catalog) saveLocked() error {
	if c.path == "" {
		return nil
	}
	seal := &sealer{out: map[string]string{}}
	f := fileFormat{Version: 1}
	for _, t := range c.tables {
		s, err := encodeSchema(t.Spec.Schema)
		if err != nil {
			return fmt.Errorf("saving table %s: %w", t.Spec.Name, err)
		}
		name := "table/" + key(t.Spec.Name)
		f.Tables = append(f.Tables, tableJSON{Name: t.Spec.Name, Using: t.Spec.Using,
			Location: seal.value(name+"/location", "location", t.Spec.Location),
			Options:  seal.values(name+"/options", t.Spec.Options), Schema: s,
			PartitionBy: t.Spec.PartitionBy, Watermark: t.Watermark,
			Comment:        seal.value(name+"/comment", "comment", t.Comment),
			ColumnComments: seal.values(name+"/column_comments", t.ColumnComments),
			Properties:     seal.values(name+"/properties", t.Properties),
			Inferred:       t.Inferred, Managed: t.Managed, Dynamic: t.Dynamic, Pending: t.Pending, Created: t.Created, Stats: t.Stats})
	}
	for _, o := range c.objects {
		name := "object/" + o.Kind + "/" + key(o.Name)
		so := *o
		so.SQL = seal.value(name+"/sql", "sql", o.SQL)
		opts, err := seal.json(name+"/options", o.Options)
		if err != nil {
			return fmt.Errorf("saving %s %s: options: %w", o.Kind, o.Name, err)
		}
		so.Options = opts
		f.Objects = append(f.Objects, &so)
	}
	for _, d := range c.databases {
		name := "database/" + key(d.Name)
		sd := *d
		sd.Location = seal.value(name+"/location", "location", d.Location)
		sd.Comment = seal.value(name+"/comment", "comment", d.Comment)
		sd.Properties = seal.values(name+"/properties", d.Properties)
		f.Databases = append(f.Databases, &sd)
	}
	if len(seal.out) > 0 {
		f.Version = secretsVersion
	}
	if c.holdsSQL() {
		f.Version = sparkQuotesVersion
	}
	f.Reader = formatver.Catalog.Reader(f.Version)
	sort.Slice(f.Databases, func(i, j int) bool { return f.Databases[i].Name < f.Databases[j].Name })
	sortTables(f.Tables)
	sortObjects(f.Objects)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("saving catalog: %w", err)
	}
	err = c.storeSecrets(seal.out, func() error {
		if err := writeAtomic(c.path, ".catalog-*.tmp", append(data, '\n')); err != nil {
			return fmt.Errorf("saving catalog: %w", err)
		}
		return nil
	})
	if err == nil {
		c.plain = false
	}
	return err
}
