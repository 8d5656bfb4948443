package storage

import (
	"errors"
	"testing"
)

func TestWrapOnce(t *testing.T) {
	for _, c := range []struct {
		in   error
		want string
	}{
		{errors.New("listing s3://b/: SlowDown: reduce"), "listing s3://b/: SlowDown: reduce"},
		{errors.New("listing s3://b: bucket does not exist"), "listing s3://b/: bucket does not exist"},
		{errors.New("access denied to s3://b (check credentials)"), "listing s3://b/: access denied to s3://b (check credentials)"},
		{errors.New("listing s3://b/sub/: x"), "listing s3://b/: listing s3://b/sub/: x"},
	} {
		got := WrapOnce("listing", "s3://b/", c.in)
		if got.Error() != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
		if !errors.Is(got, c.in) {
			t.Errorf("%q: the cause is lost", c.in)
		}
	}
	if WrapOnce("listing", "x", nil) != nil {
		t.Error("nil must stay nil")
	}
}
