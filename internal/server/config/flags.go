package config

import (
	"flag"
	"fmt"
)

// Flags are serve's command-line flags: one per setting, plus --config
// and --print-config. A flag overrides the file and the environment only
// when it is given, so each remembers the values it was given.
type Flags struct {
	// ConfigFile is --config: the TOML file ("" for none).
	ConfigFile string
	// PrintConfig is --print-config: print the effective configuration
	// and exit.
	PrintConfig bool

	given []given
}

type given struct {
	f     Field
	value string
}

// Register adds the flags to fs.
func Register(fs *flag.FlagSet) *Flags {
	fl := &Flags{}
	fs.StringVar(&fl.ConfigFile, "config", "", "TOML configuration file")
	fs.BoolVar(&fl.PrintConfig, "print-config", false, "print the effective configuration (secrets as ***) and exit")
	def := Default()
	for _, f := range fields {
		fs.Var(&flagValue{fl: fl, f: f, def: f.format(&def)}, f.Flag, f.Usage)
	}
	return fl
}

// apply sets c from the flags given, in their order; a list flag's
// values replace the lower layers' list.
func (fl *Flags) apply(c *Config) error {
	reset := map[string]bool{}
	for _, g := range fl.given {
		if g.f.IsList() && !reset[g.f.Flag] {
			g.f.reset(c)
			reset[g.f.Flag] = true
		}
		if err := g.f.set(c, g.value); err != nil {
			return fmt.Errorf("--%s: %w", g.f.Flag, err)
		}
	}
	return nil
}

// flagValue records a flag's values, checked at once so a bad one is
// refused while the command line is parsed.
type flagValue struct {
	fl  *Flags
	f   Field
	def string
}

func (v *flagValue) String() string { return v.def }

func (v *flagValue) Set(s string) error {
	scratch := Default()
	if err := v.f.set(&scratch, s); err != nil {
		return err
	}
	v.fl.given = append(v.fl.given, given{f: v.f, value: s})
	return nil
}
