// Package access is a restricted session's rule: it reaches data only
// through catalog tables and the locations `sluice serve
// --allow-location` allows, never the data dir's catalog files. The
// engine's Session holds one (engine.Session.RestrictData) and asks it
// before a direct file query, a LOCATION or a stream's location option.
package access

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/storage"
	"sluice/internal/usererr"
)

// Locations are the places outside the catalog a restricted session may
// reach (`sluice serve --allow-location`), parsed once: each a local
// directory or file (absolute, cleaned, symbolic links resolved) or an
// object-store prefix such as s3://bucket/prefix. A location is inside
// one when it is the same or below it at a path boundary:
// s3://bucket/logs allows s3://bucket/logs/2024/a.json, not
// s3://bucket/logs2/.
type Locations struct {
	list []location
	raw  []string
}

// location is one place in canonical form: scheme "" for the local file
// system, "s3" for s3:// and s3a://, else the URL's scheme lowercased;
// path starts with "/" and has no trailing "/" (except the root).
type location struct{ scheme, path string }

// ParseLocations checks and canonicalizes prefixes: an empty one, or an
// object-store one with a ".." segment, is an error.
func ParseLocations(prefixes []string) (Locations, error) {
	var ls Locations
	for _, p := range prefixes {
		if strings.TrimSpace(p) == "" {
			return Locations{}, fmt.Errorf("allowed location: empty")
		}
		l, ok := canonicalLocation(p)
		if !ok {
			return Locations{}, fmt.Errorf("allowed location %q: want a local path or an s3://bucket/prefix without '..'", p)
		}
		ls.list = append(ls.list, l)
		ls.raw = append(ls.raw, p)
	}
	return ls, nil
}

// Strings are the prefixes as given.
func (ls Locations) Strings() []string { return append([]string(nil), ls.raw...) }

// contains reports whether loc lies inside one of ls. A location that
// cannot be put in canonical form is inside none.
func (ls Locations) contains(loc string) bool {
	l, ok := canonicalLocation(loc)
	if !ok {
		return false
	}
	for _, a := range ls.list {
		if a.scheme == l.scheme && pathWithin(a.path, l.path, a.scheme == "") {
			return true
		}
	}
	return false
}

// with is ls and the local directory dir: where a restricted session's
// streams keep their checkpoints by default.
func (ls Locations) with(dir string) Locations {
	out := Locations{list: append([]location(nil), ls.list...), raw: ls.raw}
	if l, ok := canonicalLocation(dir); ok && dir != "" {
		out.list = append(out.list, l)
	}
	return out
}

// pathWithin reports whether p is root or below it at a "/" boundary;
// local paths compare as the OS does (case-insensitively on macOS and
// Windows).
func pathWithin(root, p string, local bool) bool {
	if local && (runtime.GOOS == "darwin" || runtime.GOOS == "windows") {
		root, p = strings.ToLower(root), strings.ToLower(p)
	}
	if p == root || root == "/" {
		return true
	}
	return strings.HasPrefix(p, root+"/")
}

// canonicalLocation puts loc in the form Locations compare: local paths
// the way storage.Resolve reads them (file:, file://, ~) made absolute,
// cleaned (no ".." escapes) and with the symbolic links of their longest
// existing ancestor resolved; object-store locations as scheme and
// "/bucket/key", refused (ok false) with a ".." or "." segment, since the
// bucket is cut off before any cleaning would apply.
func canonicalLocation(loc string) (location, bool) {
	scheme, rest, hasScheme := strings.Cut(loc, "://")
	if !hasScheme {
		if after, ok := strings.CutPrefix(loc, "file:"); ok {
			return localLocation(after)
		}
		return localLocation(loc)
	}
	scheme = strings.ToLower(scheme)
	switch scheme {
	case "file":
		if after, ok := strings.CutPrefix(rest, "localhost/"); ok {
			rest = "/" + after
		}
		return localLocation(rest)
	case "s3a":
		scheme = "s3"
	}
	rest = strings.TrimRight(rest, "/")
	if rest == "" {
		return location{}, false
	}
	for _, seg := range strings.Split(rest, "/") {
		if seg == ".." || seg == "." {
			return location{}, false
		}
	}
	return location{scheme: scheme, path: "/" + rest}, true
}

func localLocation(p string) (location, bool) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return location{}, false
		}
		p = home + p[1:]
	}
	if p == "" {
		p = "."
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return location{}, false
	}
	return location{path: filepath.ToSlash(resolveExisting(abs))}, true
}

// resolveExisting resolves the symbolic links of abs's longest existing
// ancestor and puts the rest back: cheap, and a link inside an allowed
// directory that points outside it does not count as inside.
func resolveExisting(abs string) string {
	var tail []string
	p := abs
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, tail...)...)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs
		}
		tail = append([]string{filepath.Base(p)}, tail...)
		p = parent
	}
}

// Rule is a restricted session's rule: it reaches data only through
// catalog tables and allowed locations. The nil *Rule (admin sessions,
// the CLI) is unrestricted.
type Rule struct {
	who     string // "user bob (role read)", for refusals
	allowed Locations
	// private are the data dir's catalog.json and secrets.json: refused
	// even inside an allowed prefix, as is a directory or pattern that
	// takes them in.
	private Locations
}

// NewRule is who's rule (e.g. "user bob (role read)", named in
// refusals): allowed, never the catalog files of data dir dataDir.
func NewRule(who string, allowed Locations, dataDir string) *Rule {
	return &Rule{who: who, allowed: allowed, private: privateFiles(dataDir)}
}

// privateFiles are dir's catalog files (none without a data dir).
func privateFiles(dir string) Locations {
	if dir == "" {
		return Locations{}
	}
	ls, err := ParseLocations([]string{filepath.Join(dir, catalog.FileName), filepath.Join(dir, catalog.SecretsFile)})
	if err != nil {
		return Locations{}
	}
	return ls
}

// takesIn reports whether reading loc (a file, a directory with all
// below it, or a pattern from its literal directories on) could read one
// of ls.
func (ls Locations) takesIn(loc string) bool {
	if i := strings.IndexAny(loc, "*?["); i >= 0 {
		loc = loc[:i]
		if j := strings.LastIndex(loc, "/"); j >= 0 {
			loc = loc[:j+1]
		}
	}
	l, ok := canonicalLocation(loc)
	if !ok {
		return false
	}
	for _, p := range ls.list {
		if p.scheme == l.scheme && pathWithin(l.path, p.path, l.scheme == "") {
			return true
		}
	}
	return false
}

// checkPrivate refuses an allowed location that takes in the data dir's
// catalog files (an --allow-location prefix above the data dir).
func (a *Rule) checkPrivate(what string, loc string) error {
	if a.private.takesIn(loc) {
		return usererr.Errorf(usererr.Forbidden, "%s may not reach the data dir's catalog or secrets files; %s takes them in", a.who, what)
	}
	return nil
}

// CheckRead refuses a direct file query of a location outside the
// allowed ones; what is how the query named it (csv.`/etc/passwd`).
func (a *Rule) CheckRead(what, loc string) error {
	if a == nil {
		return nil
	}
	if a.allowed.contains(loc) {
		return a.checkPrivate(what, loc)
	}
	return usererr.Errorf(usererr.Forbidden, "%s may read files only through catalog tables or --allow-location prefixes; %s is neither", a.who, what)
}

// checkWrite refuses a location option of a statement (a stream's
// checkpoint_location, ...) outside the allowed ones and extra (the data
// dir's own place for it, "" for none; named extraName so a refusal does
// not print the server's paths).
func (a *Rule) checkWrite(option, loc, extra, extraName string) error {
	if a == nil {
		return nil
	}
	if a.allowed.with(extra).contains(loc) {
		return a.checkPrivate(fmt.Sprintf("%s %q", option, loc), loc)
	}
	where := "--allow-location prefixes"
	if extra != "" {
		where = extraName + " or " + where
	}
	return usererr.Errorf(usererr.Forbidden, "%s may set %s only under %s; %q is not", a.who, option, where, loc)
}

// CheckLocation refuses a LOCATION a restricted session names outside
// the allowed ones ("" is the data dir's own place, always fine): a table
// over /etc would make it readable. `sluice serve` leaves DDL to admins
// anyway; this holds whatever the server's role check lets through.
func (a *Rule) CheckLocation(option, loc string) error {
	if loc == "" {
		return nil
	}
	return a.checkWrite(option, loc, "", "")
}

// streamLocationKeys are the INSERT STREAM options that name a place the
// stream writes to or reads from, beyond its tables: a restricted session
// may point them only at allowed locations.
var streamLocationKeys = []string{"checkpoint_location", "dead_letter_location", "queue"}

// CheckStreamLocations refuses a stream's options that name a location
// outside the allowed ones; a checkpoint may also go under data dir
// dataDir's checkpoints/, where it goes by default.
func (a *Rule) CheckStreamLocations(opts map[string]string, dataDir string) error {
	if a == nil {
		return nil
	}
	for _, k := range streamLocationKeys {
		v, ok := opts[k]
		if !ok {
			continue
		}
		extra, extraName := "", ""
		if k == "checkpoint_location" && dataDir != "" {
			extra, extraName = filepath.Join(dataDir, "checkpoints"), "the data dir's checkpoints/"
		}
		if err := a.checkWrite(k, storage.NormalizeLocation(v), extra, extraName); err != nil {
			return err
		}
	}
	return nil
}
