package conformance

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/safepath"
)

// options checks the connector's option keys through the registry's
// rules: every declared key is accepted, unknown ones are refused with
// the closest known key, by ValidateOptions and by Prepare alike.
func (c *target) options(t *testing.T) {
	f := c.f
	if !sort.StringsAreSorted(f.OptionKeys) {
		t.Errorf("OptionKeys are not sorted: %v", f.OptionKeys)
	}
	known := map[string]bool{}
	for _, k := range f.OptionKeys {
		if known[k] {
			t.Errorf("OptionKeys lists %q twice", k)
		}
		known[k] = true
		if k != strings.ToLower(k) {
			t.Errorf("option key %q is not lower case (OPTIONS keys are lower-cased)", k)
		}
		if err := registry.CheckKeys(map[string]string{k: "x"}, "for a "+f.Name+" table", f.OptionKeys); err != nil {
			t.Errorf("declared key %q refused by the key check: %v", k, err)
		}
	}
	for _, k := range f.StreamOptionKeys {
		if !known[k] {
			t.Errorf("stream option key %q is not one of OptionKeys", k)
		}
	}
	listed := false
	if g, err := registry.Lookup(f.Name); err == nil && g == f {
		listed = true
	}

	refused := func(t *testing.T, opts map[string]string, want string) {
		t.Helper()
		err := registry.ValidateFactory(f, opts)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ValidateFactory(%v) = %v, want an error containing %q", opts, err, want)
		}
		if listed {
			if err := registry.ValidateOptions(f.Name, opts); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("registry.ValidateOptions(%v) = %v, want an error containing %q", opts, err, want)
			}
		}
		spec := connector.TableSpec{Name: "t", Using: f.Name, Location: t.TempDir() + "/", Options: opts}
		if _, err := registry.PrepareFactory(f, &spec, connector.Env{DataDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Prepare with %v = %v, want an error containing %q", opts, err, want)
		}
	}

	far := map[string]string{"conformance_no_such_option": "1"}
	if len(f.OptionKeys) == 0 {
		refused(t, far, `unknown option "conformance_no_such_option" for a `+f.Name+` table (it takes no options)`)
	} else {
		refused(t, far, `unknown option "conformance_no_such_option" for a `+f.Name+` table`)
	}
	for _, k := range f.OptionKeys {
		typo := swapped(k)
		if typo == "" || known[typo] {
			continue
		}
		refused(t, map[string]string{typo: "1"}, fmt.Sprintf("unknown option %q for a %s table; did you mean %q?", typo, f.Name, k))
	}
	if f.NeedsLocation {
		// Without a LOCATION a table is refused, or managed: placed by
		// Defaults inside the data dir.
		dir := t.TempDir()
		spec := connector.TableSpec{Name: "t", Using: f.Name}
		managed, err := registry.PrepareFactory(f, &spec, connector.Env{DataDir: dir})
		switch {
		case err != nil:
		case f.Defaults == nil:
			t.Errorf("Prepare of a %s table without a LOCATION succeeded", f.Name)
		case !managed || !safepath.Within(dir, spec.Location):
			t.Errorf("Prepare of a %s table without a LOCATION placed it at %q (managed %v), not inside the data dir", f.Name, spec.Location, managed)
		}
	}
}

// swapped is key with two adjacent letters in its middle swapped (a
// typo one edit away), or "" when the key is too short for the registry
// to suggest anything for it.
func swapped(key string) string {
	if len(key) < 6 {
		return ""
	}
	b := []byte(key)
	for i := len(b)/2 - 1; i+1 < len(b); i++ {
		if b[i] != b[i+1] {
			b[i], b[i+1] = b[i+1], b[i]
			return string(b)
		}
	}
	return ""
}
