package config

import (
	"bytes"
	"strings"
	"testing"
)

// TestPrintRedacts: credentials print as ***, a URL's password too.
func TestPrintRedacts(t *testing.T) {
	c := Default()
	c.Server.Security.AllowLocations = []string{"s3://AKIAEXAMPLE:hunter2@bucket/p/"}
	c.Server.Security.AllowedHosts = []string{"h"}
	var out bytes.Buffer
	if err := Print(&out, c); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "hunter2") || !strings.Contains(out.String(), `allow_locations = ["s3://AKIAEXAMPLE:***@bucket/p/"]`) {
		t.Fatalf("not redacted:\n%s", out.String())
	}
	// A setting whose key names a credential prints as *** whole.
	tok := field("auth", "api_token", "api-token", "", func(c *Config) *string { return &c.LogFormat })
	c.LogFormat = "sluice_abc"
	if got := tok.formatRedacted(&c); got != `"***"` {
		t.Fatalf("api_token printed as %s", got)
	}
	if got := tok.format(&c); got != `"sluice_abc"` {
		t.Fatalf("unredacted format: %s", got)
	}
}
