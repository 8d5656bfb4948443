// Package index is the embedded local search index, on Bleve: the
// default sink when no OpenSearch cluster is around. It keeps the
// OpenSearch connector's semantics (deterministic ids, index / create /
// upsert, the same mapping rules, match() with the same analyzer) in a
// directory under the data dir.
//
//	CREATE TABLE hot (ts TIMESTAMP, host STRING, msg STRING) USING index
//	  OPTIONS (text_fields 'msg', id 'host');
//	INSERT INTO hot SELECT ts, host, msg FROM logs;
//	SELECT host FROM hot WHERE match(msg, 'login failed');  -- pushed to Bleve
//
// The index lives at OPTIONS path; without one, the registry puts it in
// the data dir, under indexes/<table>. Each document keeps its row as
// JSON in a stored field, so reads give back exactly what was written.
package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/lockwait"
)

// OptionKeys lists every OPTIONS key an index table accepts, sorted.
func OptionKeys() []string {
	return []string{"action", "dead_letter_location", "id", "path", "text_fields"}
}

// Options are a table's parsed options.
type Options struct {
	Path       string
	ID         []string
	Action     string
	TextFields map[string]bool
	DeadLetter string
}

// ValidateOptions checks option values (the registry checked the keys).
func ValidateOptions(m map[string]string) error {
	_, err := parseOptions(connector.TableSpec{Name: "t", Options: m}, false)
	return err
}

// ParseOptions reads a table's options; the path must be set.
func ParseOptions(spec connector.TableSpec) (Options, error) { return parseOptions(spec, true) }

func parseOptions(spec connector.TableSpec, needPath bool) (Options, error) {
	m := spec.Options
	o := Options{Action: "index", TextFields: map[string]bool{}, DeadLetter: m["dead_letter_location"]}
	o.Path = m["path"]
	if o.Path == "" && needPath {
		// The registry fills in a path under the data dir at CREATE; a
		// spec without one was not made through it.
		return o, fmt.Errorf("index table %s has no path", spec.Name)
	}
	for _, c := range strings.Split(m["id"], ",") {
		if c = strings.Trim(strings.TrimSpace(c), "`"); c != "" {
			o.ID = append(o.ID, c)
		}
	}
	for _, c := range strings.Split(m["text_fields"], ",") {
		if c = strings.Trim(strings.TrimSpace(c), "`"); c != "" {
			o.TextFields[c] = true
		}
	}
	if v := strings.ToLower(m["action"]); v != "" {
		if v != "index" && v != "create" && v != "upsert" {
			return o, fmt.Errorf("option action: %q is not index, create or upsert", m["action"])
		}
		o.Action = v
	}
	return o, nil
}

// shared is one open Bleve index: Bleve locks its directory, so every
// sink and source of a path in this process shares one handle.
type shared struct {
	idx  bleve.Index
	refs int
	mu   sync.Mutex // serializes writers (upsert reads then writes)
}

var (
	openMu sync.Mutex
	opened = map[string]*shared{}
)

// acquire opens (or creates, with mappings from schema) the index at path.
// Another process holding it (a server's stream writing it) makes it
// wait, saying so past a second and ending with ctx (openBleve).
func acquire(ctx context.Context, path string, schema *arrow.Schema, text map[string]bool, create bool) (*shared, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	openMu.Lock()
	defer openMu.Unlock()
	if s := opened[abs]; s != nil {
		s.refs++
		return s, nil
	}
	idx, err := openBleve(ctx, abs)
	if err == bleve.ErrorIndexMetaMissing && create && emptyDir(abs) {
		// An empty folder (a dropped index's, or one made by hand) is an
		// empty index: Bleve wants to create the folder itself.
		if rerr := os.Remove(abs); rerr == nil {
			err = bleve.ErrorIndexPathDoesNotExist
		}
	}
	if err == bleve.ErrorIndexPathDoesNotExist || (err != nil && os.IsNotExist(err)) {
		if !create {
			return nil, nil
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return nil, fmt.Errorf("creating index %s: %w", path, err)
		}
		idx, err = bleve.New(abs, Mapping(schema, text))
	}
	if err != nil {
		return nil, fmt.Errorf("opening index %s: %w", path, err)
	}
	s := &shared{idx: idx, refs: 1}
	opened[abs] = s
	return s, nil
}

// boltPoll is how long one attempt at the index's file lock (Bleve's
// root.bolt) waits; bolt's own default is forever, deaf to signals.
const boltPoll = "100ms"

// openBleve opens the index at abs, waiting through lockwait while
// another process holds it.
func openBleve(ctx context.Context, abs string) (bleve.Index, error) {
	var idx bleve.Index
	var openErr error
	err := lockwait.Wait(ctx, "the local index "+abs+" (open in another sluice process)", nil, func() (bool, error) {
		idx, openErr = bleve.OpenUsing(abs, map[string]interface{}{"bolt_timeout": boltPoll})
		if errors.Is(openErr, bolterrors.ErrTimeout) {
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return idx, openErr
}

// emptyDir reports whether dir is a folder with nothing in it.
func emptyDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}

func release(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	openMu.Lock()
	defer openMu.Unlock()
	s := opened[abs]
	if s == nil {
		return nil
	}
	s.refs--
	if s.refs > 0 {
		return nil
	}
	delete(opened, abs)
	return s.idx.Close()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
