package config

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"sluice/internal/suggest"
)

// applyFile sets c from the TOML file at path. Every key must be one of
// the table's: a typo would otherwise be a setting silently not applied.
func applyFile(c *Config, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading the config file: %w", err)
	}
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	var errs []keyError
	at := func(section, key string, err error) {
		errs = append(errs, keyError{line: keyLine(data, section, key), err: err})
	}
	for _, section := range sortedKeys(raw) {
		table, ok := raw[section].(map[string]any)
		if !ok {
			at("", section, unknownKey(section, ""))
			continue
		}
		if !isSection(section) {
			at(section, "", fmt.Errorf("unknown section [%s]%s", section, suggest.DidYouMean(section, Sections)))
			continue
		}
		for _, key := range sortedKeys(table) {
			f, ok := lookup(section, key)
			if !ok {
				at(section, key, unknownKey(section, key))
				continue
			}
			if err := f.setTOML(c, table[key]); err != nil {
				at(section, key, fmt.Errorf("%s: %w", f.Name(), err))
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].line < errs[j].line })
	joined := make([]error, len(errs))
	for i, e := range errs {
		where := path
		if e.line > 0 {
			where = fmt.Sprintf("%s:%d", path, e.line)
		}
		joined[i] = fmt.Errorf("%s: %w", where, e.err)
	}
	return errors.Join(joined...)
}

type keyError struct {
	line int
	err  error
}

// unknownKey is the error for section.key (key "" for a key outside any
// table), with the setting it was probably meant to be.
func unknownKey(section, key string) error {
	name := section
	if key != "" {
		name = section + "." + key
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name()
	}
	hint := suggest.DidYouMean(name, names)
	if hint == "" {
		// The right key under the wrong table, or outside any.
		bare := key
		if key == "" {
			bare = section
		}
		for _, f := range fields {
			if f.Key == bare {
				hint = fmt.Sprintf("; %s belongs in [%s]", bare, f.Section)
				break
			}
		}
	}
	return fmt.Errorf("unknown key %s%s", name, hint)
}

func isSection(s string) bool {
	for _, x := range Sections {
		if x == s {
			return true
		}
	}
	return false
}

func lookup(section, key string) (Field, bool) {
	for _, f := range fields {
		if f.Section == section && f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// keyLine is the line of data where key is set under [section] (section
// "" is before any table), or 0: the TOML decoder keeps no positions for
// keys it decoded without error, and the common layouts (a key = value
// line under its table, or section.key = value before any) are easy to
// find.
func keyLine(data []byte, section, key string) int {
	current := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			current = strings.Trim(strings.TrimSpace(strings.Trim(line, "[]")), `"'`)
			if current == section && key == "" {
				return n
			}
			continue
		}
		k, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		switch {
		case key == "" && current == "" && (k == section || strings.HasPrefix(k, section+".")):
			return n
		case key != "" && current == section && strings.Trim(k, `"'`) == key:
			return n
		case key != "" && current == "" && k == section+"."+key:
			return n
		}
	}
	return 0
}
