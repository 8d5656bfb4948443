package sql

import (
	"reflect"
	"strings"
	"testing"
)

func TestLambdaRoundTrip(t *testing.T) {
	for in, want := range map[string]string{
		"transform(a, x -> x + 1)":                              "transform(a, x -> x + 1)",
		"transform(a, (x, i) -> x + i)":                         "transform(a, (x, i) -> x + i)",
		"filter(a, x->x % 2 = 1 AND x > k)":                     "filter(a, x -> x % 2 = 1 AND x > k)",
		"exists(a, x -> x IS NULL)":                             "exists(a, x -> x IS NULL)",
		"aggregate(a, 0, (acc, x) -> acc + x, acc -> acc * 10)": "aggregate(a, 0, (acc, x) -> acc + x, acc -> acc * 10)",
		"transform(a, y -> transform(y, `select` -> `select`))": "transform(a, y -> transform(y, `select` -> `select`))",
		"f((x) + 1, (x))":                                       "f(x + 1, x)",
	} {
		e, err := ParseExpr(in)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", in, err)
			continue
		}
		if got := e.String(); got != want {
			t.Errorf("ParseExpr(%q).String() = %q, want %q", in, got, want)
			continue
		}
		again, err := ParseExpr(want)
		if err != nil || again.String() != want {
			t.Errorf("re-parsing %q: %v, %v", want, again, err)
		}
	}
	e, _ := ParseExpr("aggregate(a, 0, (acc, x) -> acc + x)")
	l, ok := e.(*Call).Args[2].(*Lambda)
	if !ok || !reflect.DeepEqual(l.Params, []string{"acc", "x"}) {
		t.Fatalf("lambda argument: got %#v", e.(*Call).Args[2])
	}
	if _, ok := l.Body.(*Binary); !ok {
		t.Errorf("lambda body: got %#v", l.Body)
	}
	// EXISTS before a query is still the predicate.
	if e, err := ParseExpr("EXISTS (SELECT 1)"); err != nil || !strings.HasPrefix(e.String(), "EXISTS (") {
		t.Errorf("EXISTS (SELECT 1): %v, %v", e, err)
	}
	if _, err := ParseExpr("transform(a, (x, x) -> x)"); err == nil || !strings.Contains(err.Error(), "repeated") {
		t.Errorf("repeated parameter: got %v", err)
	}
}
