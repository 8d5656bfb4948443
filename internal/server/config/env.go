package config

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"sluice/internal/suggest"
)

// envPrefix starts every variable of a setting: SLUICE_<SECTION>_<KEY>,
// both upper case (SLUICE_LIMITS_MAX_ROWS for [limits] max_rows).
const envPrefix = "SLUICE_"

// applyEnv sets c from the variables of env (os.Environ's form) named
// SLUICE_<SECTION>_<KEY> for a section of the table. Other SLUICE_
// variables (SLUICE_DATA_DIR, SLUICE_SERVER, SLUICE_PASSWORD: the
// clients') are not settings and are left alone; a variable under a
// section whose key is not one is an error, as in the file. A list
// setting's variable is comma-separated.
func applyEnv(c *Config, env []string) error {
	var errs []error
	env = append([]string(nil), env...)
	sort.Strings(env) // errors in a stable order
	for _, kv := range env {
		name, val, _ := strings.Cut(kv, "=")
		section, key, ok := envSetting(name)
		if !ok {
			continue
		}
		f, ok := lookup(section, key)
		if !ok {
			known := make([]string, len(fields))
			for i, f := range fields {
				known[i] = f.Env()
			}
			errs = append(errs, fmt.Errorf("%s: unknown setting %s.%s%s", name, section, key, suggest.DidYouMean(name, known)))
			continue
		}
		if err := setText(c, f, val); err != nil {
			errs = append(errs, fmt.Errorf("%s (%s): %w", name, f.Name(), err))
		}
	}
	return errors.Join(errs...)
}

// envSetting splits SLUICE_<SECTION>_<KEY> into the table's section and
// the key; ok is false for a variable under no section.
func envSetting(name string) (section, key string, ok bool) {
	rest, ok := strings.CutPrefix(name, envPrefix)
	if !ok {
		return "", "", false
	}
	for _, s := range Sections {
		if k, ok := strings.CutPrefix(rest, strings.ToUpper(s)+"_"); ok && k != "" {
			return s, strings.ToLower(k), true
		}
	}
	return "", "", false
}

// setText sets f from one variable: a list's value is comma-separated
// and replaces the lower layers' list.
func setText(c *Config, f Field, v string) error {
	if !f.IsList() {
		return f.set(c, v)
	}
	f.reset(c)
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			if err := f.set(c, item); err != nil {
				return err
			}
		}
	}
	return nil
}
