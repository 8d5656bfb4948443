package ppl

import (
	"strings"
	"testing"
)

// FuzzParse: no input makes the parser or the translation panic, and
// every error is one line.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"source=t | where a > 1 | fields a, b",
		"search source=t a=1 | stats count() as n, avg(b) by span(ts, 1h), c | sort - n | head 5",
		"source=t | dedup 2 a keepempty=true | top 3 b by c | rare d",
		"source=t | parse a '(?<x>.*)' | grok b '%{IP:ip}' | patterns c | fillnull with 0 in a",
		"source=t | lookup u b as a append d | join left = l right = r on l.a = r.b [ source=u | head 1 ]",
		"source=t | eval x = case(a > 1, 'y' else 'n'), y = cast(a as int) | rename x as z",
		"source=t /* c */ | where `a b` = \"q\\\"\" // end",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		pl, err := Parse(text)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error for %q: %v", text, err)
			}
			return
		}
		if _, err := pl.Translate(fakeColumns); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error for %q: %v", text, err)
		}
	})
}

func TestTooManyCommands(t *testing.T) {
	_, err := Parse("source=t" + strings.Repeat(" | head 1", maxCommands+1))
	if err == nil || !strings.Contains(err.Error(), "more than 1000 commands") {
		t.Errorf("got %v", err)
	}
	_, err = Parse("source=t | where " + strings.Repeat("(", 2000) + "a")
	if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("got %v", err)
	}
}
