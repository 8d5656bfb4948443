package job

import (
	"strings"
	"testing"
)

// TestDefinitionDisplay: Display redacts what is shown and leaves the
// stored definition as it was.
func TestDefinitionDisplay(t *testing.T) {
	d := Definition{Name: "feed", Kind: Stream, Sink: "out",
		Query:   "SELECT k FROM src WHERE k <> 'https://u:hunter2@h/'",
		Options: map[string]string{"trigger": "1 minute", "queue": "nats://u:hunter2@h:4222/S/C", "secret_key": "hunter2"}}
	shown := d.Display()
	for _, s := range append([]string{shown.Query}, shown.Options["queue"], shown.Options["secret_key"]) {
		if strings.Contains(s, "hunter2") {
			t.Errorf("shown %q holds the secret", s)
		}
	}
	if shown.Options["trigger"] != "1 minute" || shown.Name != "feed" || shown.Sink != "out" {
		t.Errorf("Display changed what is not secret: %+v", shown)
	}
	if !strings.Contains(d.Query, "hunter2") || d.Options["secret_key"] != "hunter2" {
		t.Errorf("Display changed the stored definition: %+v", d)
	}
}
