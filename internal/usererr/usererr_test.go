package usererr

import (
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestKindOf(t *testing.T) {
	sentinel := New(NotFound, "not found")
	for _, tt := range []struct {
		name string
		err  error
		kind Kind
		ok   bool
	}{
		{"plain", errors.New("disk full"), 0, false},
		{"nil", nil, 0, false},
		{"errorf", Errorf(Invalid, "bad %s", "value"), Invalid, true},
		{"wrapped by fmt", fmt.Errorf("CREATE TABLE t: %w", Errorf(Invalid, "bad")), Invalid, true},
		{"sentinel wrapped", fmt.Errorf("table %q: %w", "t", sentinel), NotFound, true},
		{"outermost mark wins", Wrap(Evaluation, Wrap(Invalid, io.EOF)), Evaluation, true},
	} {
		kind, ok := KindOf(tt.err)
		if kind != tt.kind || ok != tt.ok || IsUser(tt.err) != tt.ok {
			t.Errorf("%s: KindOf = %v, %v; want %v, %v", tt.name, kind, ok, tt.kind, tt.ok)
		}
	}
}

func TestWrapKeepsChainAndText(t *testing.T) {
	err := Wrap(Invalid, fmt.Errorf("reading: %w", io.EOF))
	if !errors.Is(err, io.EOF) || err.Error() != "reading: EOF" {
		t.Fatalf("%v: chain or text lost", err)
	}
	if Wrap(Invalid, nil) != nil {
		t.Fatal("Wrap(nil) is not nil")
	}
	s := New(Exists, "already exists")
	if !errors.Is(fmt.Errorf("x: %w", s), s) || errors.Is(New(Exists, "already exists"), s) {
		t.Fatal("sentinels must match by identity")
	}
}
