package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"sluice/internal/server"
	"sluice/internal/sql"
)

// Field is one setting: key Key of table [Section] in the file,
// SLUICE_<SECTION>_<KEY> in the environment, --Flag on the command line.
type Field struct {
	Section, Key, Flag, Usage string
	// Reloadable settings are applied by a reload without a restart.
	Reloadable bool

	ptr   func(*Config) any // *string, *int, *int64, *time.Duration or *[]string
	valid func(string) error
}

// field is a Field whose value is *p(c).
func field[T string | int | int64 | time.Duration | []string](section, key, flag, usage string, p func(*Config) *T) Field {
	return Field{Section: section, Key: key, Flag: flag, Usage: usage, ptr: func(c *Config) any { return p(c) }}
}

func (f Field) check(valid func(string) error) Field { f.valid = valid; return f }

func (f Field) reloadable() Field { f.Reloadable = true; return f }

// Name is section.key, as errors and --print-config's diff name it.
func (f Field) Name() string { return f.Section + "." + f.Key }

// Env is the environment variable that sets f.
func (f Field) Env() string {
	return envPrefix + strings.ToUpper(f.Section) + "_" + strings.ToUpper(f.Key)
}

// IsList reports whether f takes several values (a repeatable flag, a
// TOML array, a comma-separated variable).
func (f Field) IsList() bool {
	_, ok := f.ptr(&Config{}).(*[]string)
	return ok
}

// secret reports whether f's value is a credential, printed as ***.
// Paths to credentials (the TLS key, the users file) are not secrets.
func (f Field) secret() bool { return sql.IsSecretKey(f.Key) }

// set parses one textual value (a flag's, a variable's, a TOML string
// for a list) into c; a list gets v appended.
func (f Field) set(c *Config, v string) error {
	switch p := f.ptr(c).(type) {
	case *string:
		if f.valid != nil {
			if err := f.valid(v); err != nil {
				return err
			}
		}
		*p = v
	case *int:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("want an integer, got %q", v)
		}
		*p = n
	case *int64:
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return fmt.Errorf("want an integer, got %q", v)
		}
		*p = n
	case *time.Duration:
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("want a duration like \"30s\" or \"5m\", got %q", v)
		}
		*p = d
	case *[]string:
		*p = append(*p, v)
	}
	return nil
}

// setTOML sets f from a value of the file, as the TOML decoder gives it.
func (f Field) setTOML(c *Config, v any) error {
	switch p := f.ptr(c).(type) {
	case *int, *int64:
		n, ok := v.(int64)
		if !ok {
			return fmt.Errorf("want an integer, got %s", tomlType(v))
		}
		if q, ok := p.(*int); ok {
			if int64(int(n)) != n {
				return fmt.Errorf("%d is out of range", n)
			}
			*q = int(n)
			return nil
		}
		*p.(*int64) = n
		return nil
	case *[]string:
		*p = nil
		items, ok := v.([]any)
		if !ok {
			items = []any{v}
		}
		for _, it := range items {
			s, ok := it.(string)
			if !ok {
				return fmt.Errorf("want strings, got %s", tomlType(it))
			}
			*p = append(*p, s)
		}
		return nil
	}
	s, ok := v.(string)
	if !ok {
		if _, dur := f.ptr(c).(*time.Duration); dur {
			return fmt.Errorf("want a duration string like \"30s\", got %s", tomlType(v))
		}
		return fmt.Errorf("want a string, got %s", tomlType(v))
	}
	return f.set(c, s)
}

// reset empties a list before the values of a higher layer replace it.
func (f Field) reset(c *Config) {
	if p, ok := f.ptr(c).(*[]string); ok {
		*p = nil
	}
}

// format is f's value in c as TOML.
func (f Field) format(c *Config) string { return f.formatWith(c, func(s string) string { return s }) }

// formatRedacted is format with credentials replaced by ***.
func (f Field) formatRedacted(c *Config) string {
	return f.formatWith(c, func(s string) string {
		if f.secret() && s != "" {
			return "***"
		}
		return server.RedactSecrets(s)
	})
}

func (f Field) formatWith(c *Config, clean func(string) string) string {
	switch p := f.ptr(c).(type) {
	case *string:
		return quote(clean(*p))
	case *int:
		return strconv.Itoa(*p)
	case *int64:
		return strconv.FormatInt(*p, 10)
	case *time.Duration:
		return quote(formatDuration(*p))
	case *[]string:
		q := make([]string, len(*p))
		for i, s := range *p {
			q[i] = quote(clean(s))
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return ""
}

// formatDuration is d without Go's trailing zero units ("10m", not
// "10m0s"); time.ParseDuration reads it back.
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}
