package config

import (
	"fmt"
	"io"
)

// Print writes c as a TOML file that Load reads back, credentials
// replaced by *** (and any password in a URL, as the server's logs do).
func Print(w io.Writer, c Config) error {
	if _, err := fmt.Fprintln(w, "# The effective configuration of sluice serve: defaults < --config file < SLUICE_<SECTION>_<KEY> < flags."); err != nil {
		return err
	}
	for _, section := range Sections {
		if _, err := fmt.Fprintf(w, "\n[%s]\n", section); err != nil {
			return err
		}
		for _, f := range fields {
			if f.Section != section {
				continue
			}
			if _, err := fmt.Fprintf(w, "%s = %s\n", f.Key, f.formatRedacted(&c)); err != nil {
				return err
			}
		}
	}
	return nil
}
