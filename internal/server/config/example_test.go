package config

import (
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"sluice/internal/cli"
)

const exampleFile = "../../../docs/sluice.example.toml"

// TestExampleCoversEveryFlag: docs/sluice.example.toml (the README's
// Configuration) sets every key of every serve flag to its default and
// names the flag, and `sluice help` lists the flag: a new flag fails
// here until it is documented.
func TestExampleCoversEveryFlag(t *testing.T) {
	data, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```toml\n"+string(data)+"```") {
		t.Errorf("the README's Configuration does not show %s as it is", exampleFile)
	}
	var raw map[string]map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	Register(fs)
	byFlag := map[string]Field{}
	for _, f := range fields {
		byFlag[f.Flag] = f
	}
	fs.VisitAll(func(fg *flag.Flag) {
		if !strings.Contains(cli.Usage, "--"+fg.Name+" ") {
			t.Errorf("--%s is missing from sluice help", fg.Name)
		}
		if fg.Name == "config" || fg.Name == "print-config" {
			return
		}
		f, ok := byFlag[fg.Name]
		if !ok {
			t.Errorf("--%s is no setting of the table", fg.Name)
			return
		}
		if _, ok := raw[f.Section][f.Key]; !ok {
			t.Errorf("--%s: %s is missing from %s", fg.Name, f.Name(), exampleFile)
		}
		if !strings.Contains(string(data), "--"+fg.Name) {
			t.Errorf("--%s: %s does not name the flag", fg.Name, exampleFile)
		}
	})
	fl := &Flags{ConfigFile: exampleFile}
	c, err := Load(fl, nil)
	if err != nil {
		t.Fatal(err)
	}
	def := Default()
	for _, f := range fields {
		if f.Name() != "server.data_dir" && f.format(&c) != f.format(&def) {
			t.Errorf("%s: the example has %s, the default is %s", f.Name(), f.format(&c), f.format(&def))
		}
	}
}
