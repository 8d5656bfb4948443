package file

import "testing"

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		pattern, key string
		want         bool
	}{
		{"logs/*.json", "logs/a.json", true},
		{"logs/*.json", "logs/sub/a.json", false},
		{"logs/*.json.gz", "logs/a.json.gz", true},
		{"logs/*.json.gz", "logs/a.json", false},
		{"logs/**/*.json", "logs/a.json", true},
		{"logs/**/*.json", "logs/x/y/z/a.json", true},
		{"logs/**", "logs/x/y", true},
		{"logs/**.json", "logs/x/y.json", true},
		{"logs/?.json", "logs/a.json", true},
		{"logs/?.json", "logs/ab.json", false},
		{"logs/?.json", "logs//.json", false},
		{"logs/[ab].json", "logs/b.json", true},
		{"logs/[ab].json", "logs/c.json", false},
		{"logs/[a-c].json", "logs/c.json", true},
		{"logs/[!a-c].json", "logs/d.json", true},
		{"logs/[!a-c].json", "logs/a.json", false},
		{"logs/[^a].json", "logs/b.json", true},
		{"logs/[]].json", "logs/].json", true},
		{"logs/{a,b}.json", "logs/b.json", true},
		{"logs/{a,b}.json", "logs/c.json", false},
		{"logs/{a,b*}/x", "logs/bcd/x", true},
		{"logs/{a,{b,c}}.json", "logs/c.json", true},
		{"logs/{,x}a.json", "logs/a.json", true},
		{`logs/\*.json`, "logs/*.json", true},
		{`logs/\*.json`, "logs/a.json", false},
		{"logs/a+b(1).json", "logs/a+b(1).json", true},
		{"year=*/month=1?/*", "year=2026/month=11/x.json", true},
	}
	for _, c := range cases {
		g, err := compileGlob(c.pattern)
		if err != nil {
			t.Fatalf("compileGlob(%q): %v", c.pattern, err)
		}
		if got := g.Match(c.key); got != c.want {
			t.Errorf("%q matching %q = %v, want %v", c.pattern, c.key, got, c.want)
		}
	}
}

func TestGlobPrefix(t *testing.T) {
	cases := map[string]string{
		"logs/*.json":        "logs/",
		"logs/2026-*/a":      "logs/2026-",
		"logs/a.json":        "logs/a.json",
		"{a,b}/x":            "",
		`logs/\*/x*`:         "logs/*/x",
		"logs/y=2026/[0-9]/": "logs/y=2026/",
	}
	for p, want := range cases {
		g, err := compileGlob(p)
		if err != nil {
			t.Fatal(err)
		}
		if g.prefix != want {
			t.Errorf("prefix(%q) = %q, want %q", p, g.prefix, want)
		}
	}
	if hasMeta(`a\*b`) || !hasMeta("a{b,c}") || hasMeta("plain/path.json") {
		t.Error("hasMeta wrong")
	}
}

func TestGlobErrors(t *testing.T) {
	for _, p := range []string{"logs/[ab", "logs/{a,b", `logs/x\`} {
		if _, err := compileGlob(p); err == nil {
			t.Errorf("compileGlob(%q) succeeded, want an error", p)
		}
	}
}
