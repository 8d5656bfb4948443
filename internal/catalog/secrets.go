package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sluice/internal/formatver"
	"sluice/internal/sql"
)

// Secrets at rest. catalog.json holds no credential: a value that is one
// (an option whose key names a credential, sql.IsSecretKey; a URL with
// user info, user:password@ or token@, anywhere in a value or a stored
// statement) is kept in SecretsFile, mode 0600, and catalog.json holds
// the reference ${secret:NAME} in its place. Loading puts the values
// back, so a *Table or *Object read from the catalog has its options as
// they were written and the connectors and display code see no
// difference (display redacts as before).
//
// The store is written from the catalog on each save, so a dropped table
// takes its secrets with it. A value that is only ${env:VAR} references
// is not a secret and stays in catalog.json as written (it is resolved
// when the table is opened, storage.ExpandEnv). catalog.json files from
// before the store (version 1 with plain values) are migrated on Open.

// SecretsFile is the secrets store's name in the data directory; FileName
// is the catalog's.
const (
	SecretsFile = "secrets.json"
	FileName    = fileName
)

// secretsVersion is the catalog format whose values may be references:
// only such a file's ${secret:...} values are resolved, so a version-1
// value that happens to read ${secret:x} stays literal (and is moved to
// the store as any other).
const secretsVersion = 2

var (
	secretRef = regexp.MustCompile(`^\$\{secret:([^{}]+)\}$`)
	// envRefs: as storage.ExpandEnv reads them.
	envRefs = regexp.MustCompile(`\$\{env:[A-Za-z_][A-Za-z0-9_]*\}`)
)

// isSecret reports whether a value stored under key must go to the
// store: a credential's key with anything but ${env:} references as its
// value, a URL's user info that is not only ${env:} references, or
// anything that would read as a reference.
func isSecret(key, v string) bool {
	if v == "" {
		return false
	}
	if strings.Contains(v, "${secret:") {
		return true
	}
	hasEnv := strings.Contains(v, "${env:")
	if sql.IsSecretKey(key) && (!hasEnv || envRefs.ReplaceAllString(v, "") != "") {
		return true
	}
	if !strings.Contains(v, "@") {
		return false // no URL user info
	}
	// RedactText leaves user info that is already "***": ${env:}
	// references put as *** are left, anything else is a secret.
	masked := v
	if hasEnv {
		masked = envRefs.ReplaceAllString(v, "***")
	}
	return sql.RedactText(masked) != masked
}

// sealer moves the secret values of a catalog being saved to out.
type sealer struct{ out map[string]string }

func (s *sealer) value(name, key, v string) string {
	if !isSecret(key, v) {
		return v
	}
	s.out[name] = v
	return "${secret:" + name + "}"
}

func (s *sealer) values(name string, m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = s.value(name+"/"+url.PathEscape(k), k, v)
	}
	return out
}

func (s *sealer) json(name string, raw json.RawMessage) (json.RawMessage, error) {
	return walkJSON(raw, name, s.value)
}

// opener puts a loaded catalog's secrets back. missing is the first
// reference the store lacks; plain is set when a value should have been
// in the store (a file to migrate).
type opener struct {
	in      map[string]string
	refs    bool // the file's references are resolved (its version has them)
	missing string
	plain   bool
}

func (o *opener) value(_, key, v string) string {
	if o.refs {
		if m := secretRef.FindStringSubmatch(v); m != nil {
			s, ok := o.in[m[1]]
			if !ok && o.missing == "" {
				o.missing = m[1]
			}
			if ok {
				return s
			}
			return v
		}
	}
	if isSecret(key, v) {
		o.plain = true
	}
	return v
}

func (o *opener) values(m map[string]string) {
	for k, v := range m {
		m[k] = o.value("", k, v)
	}
}

func (o *opener) json(raw json.RawMessage) (json.RawMessage, error) {
	return walkJSON(raw, "", o.value)
}

// walkJSON runs f on every string of raw (name its path, key the nearest
// object key) and returns raw with f's results, raw itself when none
// changed.
func walkJSON(raw json.RawMessage, name string, f func(name, key, v string) string) (json.RawMessage, error) {
	if len(raw) == 0 {
		return raw, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	changed := false
	var walk func(v any, name, key string) any
	walk = func(v any, name, key string) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e, name+"/"+url.PathEscape(k), k)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e, fmt.Sprintf("%s/%d", name, i), key)
			}
		case string:
			if s := f(name, key, x); s != x {
				changed = true
				return s
			}
		}
		return v
	}
	v = walk(v, name, "")
	if !changed {
		return raw, nil
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// secretsFormat is the on-disk layout of secrets.json.
type secretsFormat struct {
	Version int `json:"version"`
	// Reader is the oldest binary that reads Version (formatver.Secrets).
	Reader  string            `json:"format_reader,omitempty"`
	Secrets map[string]string `json:"secrets"`
}

func (c *Catalog) secretsPath() string { return filepath.Join(filepath.Dir(c.path), SecretsFile) }

// readSecrets loads the store (empty when there is none), tightening its
// mode to 0600 if something loosened it.
func (c *Catalog) readSecrets() (map[string]string, error) {
	p := c.secretsPath()
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o077 != 0 {
		_ = os.Chmod(p, 0o600)
	}
	var f secretsFormat
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("corrupt secrets file %s: %w", p, err)
	}
	if err := formatver.Secrets.CheckVersion(p, f.Version, f.Reader); err != nil {
		return nil, err
	}
	if f.Secrets == nil {
		f.Secrets = map[string]string{}
	}
	return f.Secrets, nil
}

// saveSecrets writes the store whole, mode 0600, atomically.
func (c *Catalog) saveSecrets(m map[string]string) error {
	data, err := json.MarshalIndent(secretsFormat{Version: formatver.Secrets.Current(), Reader: formatver.Secrets.Reader(formatver.Secrets.Current()), Secrets: m}, "", "  ")
	if err != nil {
		return fmt.Errorf("saving secrets: %w", err)
	}
	if err := writeAtomic(c.secretsPath(), ".secrets-*.tmp", append(data, '\n')); err != nil {
		return fmt.Errorf("saving secrets: %w", err)
	}
	return nil
}

// storeSecrets brings the store from what it holds (c.secrets) to next,
// around writeCatalog: first the union of both, so the catalog as on disk
// before or after the write finds every secret it names, then next alone
// when that dropped some.
func (c *Catalog) storeSecrets(next map[string]string, writeCatalog func() error) error {
	if maps.Equal(c.secrets, next) {
		return writeCatalog()
	}
	union := maps.Clone(c.secrets)
	if union == nil {
		union = map[string]string{}
	}
	maps.Copy(union, next)
	if !maps.Equal(union, c.secrets) {
		if err := c.saveSecrets(union); err != nil {
			return err
		}
		c.secrets = union
	}
	if err := writeCatalog(); err != nil {
		return err
	}
	if !maps.Equal(union, next) {
		if err := c.saveSecrets(next); err != nil {
			return err
		}
	}
	c.secrets = next
	return nil
}

// writeAtomic replaces path with data: a temporary file (mode 0600) in
// its directory, synced, then renamed over it.
func writeAtomic(path, pattern string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), pattern)
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	tmp.Close()
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
