package functions

import (
	"strings"
	"testing"
)

func TestStrftimeParts(t *testing.T) {
	parts, literal, err := strftimeParts("%Y-%m-%d at %H:%M %% %p")
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for i, p := range parts {
		if literal[i] {
			got += "'" + p + "'"
		} else {
			got += "<" + p + ">"
		}
	}
	if want := "<2006>'-'<01>'-'<02>' at '<15>':'<04>' ''%'' '<PM>"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	for _, bad := range []string{"%Q", "%Y%"} {
		if _, _, err := strftimeParts(bad); err == nil || !strings.Contains(err.Error(), "time format") {
			t.Errorf("%q: want a time format error, got %v", bad, err)
		}
	}
}
