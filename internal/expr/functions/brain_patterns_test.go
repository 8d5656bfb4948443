package functions

import "testing"

// The apache lines and patterns of OpenSearch's PPL patterns docs
// (docs/user/ppl/cmd/patterns.md, brain examples 1 and 2).
var brainApache = []string{
	`177.95.8.74 - upton5450 [28/Sep/2022:10:15:57 -0700] "HEAD /e-business/mindshare HTTP/1.0" 404 19927`,
	`127.45.152.6 - pouros8756 [28/Sep/2022:10:15:57 -0700] "GET /architectures/convergence/niches/mindshare HTTP/1.0" 100 28722`,
	`118.223.210.105 - - [28/Sep/2022:10:15:57 -0700] "PATCH /strategize/out-of-the-box HTTP/1.0" 401 27439`,
	`210.204.15.104 - - [28/Sep/2022:10:15:57 -0700] "POST /users HTTP/1.1" 301 9481`,
}

func TestBrainParseDocExamples(t *testing.T) {
	want5 := []string{
		`<*IP*> - <*> [<*>/Sep/<*>:<*>:<*>:<*> <*>] "HEAD /e-business/mindshare HTTP/<*>" 404 <*>`,
		`<*IP*> - <*> [<*>/Sep/<*>:<*>:<*>:<*> <*>] "GET /architectures/convergence/niches/mindshare HTTP/<*>" 100 <*>`,
		`<*IP*> - - [<*>/Sep/<*>:<*>:<*>:<*> <*>] "PATCH /strategize/out-of-the-box HTTP/<*>" 401 <*>`,
		`<*IP*> - - [<*>/Sep/<*>:<*>:<*>:<*> <*>] "POST /users HTTP/<*>" 301 <*>`,
	}
	got := brainParse(brainApache, 5, 0.3)
	for i, m := range brainApache {
		if got[m] != want5[i] {
			t.Errorf("threshold 5, line %d:\ngot  %s\nwant %s", i, got[m], want5[i])
		}
	}
	want2 := `<*IP*> - <*> [<*>/Sep/<*>:<*>:<*>:<*> <*>] <*> <*> HTTP/<*>" <*> <*>`
	got = brainParse(brainApache, 2, 0.3)
	for i, m := range brainApache {
		if got[m] != want2 {
			t.Errorf("threshold 2, line %d:\ngot  %s\nwant %s", i, got[m], want2)
		}
	}
}

func TestBrainNumbers(t *testing.T) {
	for in, want := range map[string]string{
		"a=12;":      "a=<*>;",
		"x 12;":      "x 12;",
		"[-12]":      "[<*>]",
		"(12a)":      "(12a)",
		"(12":        "(12",
		"/1/2/":      "/<*>/<*>/",
		"id:+3,":     "id:<*>,",
		"no numbers": "no numbers",
	} {
		if got := brainNumbers(in); got != want {
			t.Errorf("brainNumbers(%q) = %q, want %q", in, got, want)
		}
	}
}
