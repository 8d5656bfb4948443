package config

import (
	"encoding/json"
	"strings"
)

// Load is the effective configuration: the defaults, then the file
// fl.ConfigFile (if any), then the SLUICE_<SECTION>_<KEY> variables of
// env, then the flags given.
func Load(fl *Flags, env []string) (Config, error) {
	c := Default()
	if fl.ConfigFile != "" {
		if err := applyFile(&c, fl.ConfigFile); err != nil {
			return Config{}, err
		}
	}
	if err := applyEnv(&c, env); err != nil {
		return Config{}, err
	}
	if err := fl.apply(&c); err != nil {
		return Config{}, err
	}
	return c, nil
}

// quote is s as a TOML basic string: JSON's escapes are all TOML's.
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
