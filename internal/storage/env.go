package storage

import (
	"fmt"
	"os"
	"regexp"
)

var envRef = regexp.MustCompile(`\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}`)

// ExpandEnv replaces ${env:VAR} references in an option value with the
// variable's value, so a credential can live in the environment instead
// of OPTIONS (and so of catalog.json and the shell history). The catalog
// keeps the reference; it is resolved each time a table is opened. A
// missing variable is an error that names the variable and the option
// key, never a value.
func ExpandEnv(key, v string) (string, error) {
	var missing string
	out := envRef.ReplaceAllStringFunc(v, func(m string) string {
		name := envRef.FindStringSubmatch(m)[1]
		val, ok := os.LookupEnv(name)
		if !ok && missing == "" {
			missing = name
		}
		return val
	})
	if missing != "" {
		return "", fmt.Errorf("option %s: environment variable %s is not set", key, missing)
	}
	return out, nil
}
