package job

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/plan"
	"sluice/internal/stream"
	"sluice/internal/usererr"
)

func TestRetryable(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want bool
	}{
		{"sink down", fmt.Errorf("stream s epoch 3: flushing sink: %w", errors.New("connection refused")), true},
		{"table dropped", fmt.Errorf("table %q: %w", "t", catalog.ErrNotFound), false},
		{"bad row", fmt.Errorf("epoch 1: %w", usererr.Errorf(usererr.Evaluation, "cannot cast 'x' to BIGINT")), false},
		{"plan does not bind", &plan.Error{Msg: "column x not found"}, false},
		{"binding hit a store error", &plan.Error{Msg: "listing", Err: errors.New("503 Slow Down")}, true},
		{"state mismatch", fmt.Errorf("start: %w", &stream.StateMismatchError{}), false},
		{"state too large", &exec.StateTooLargeError{}, false},
	} {
		if got := Retryable(tt.err); got != tt.want {
			t.Errorf("%s: Retryable(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}

func TestRetryDelay(t *testing.T) {
	m := NewManager(Config[string]{RetryInitial: 100 * time.Millisecond, RetryMax: time.Second})
	var got []time.Duration
	for n := 1; n <= 6; n++ {
		got = append(got, m.RetryDelay(n))
	}
	if fmt.Sprint(got) != "[100ms 200ms 400ms 800ms 1s 1s]" {
		t.Errorf("delays %v", got)
	}
	if d := NewManager(Config[string]{}).RetryDelay(30); d != DefaultRetryMax {
		t.Errorf("default cap: %v", d)
	}
	if d := NewManager(Config[string]{}).RetryDelay(1); d != DefaultRetryInitial {
		t.Errorf("default first delay: %v", d)
	}
	unreachable := fmt.Errorf("jetstream: %w", connector.ErrUnreachable)
	if d := NewManager(Config[string]{}).RetryDelayFor(unreachable, 6); d != UnreachableRetryMax {
		t.Errorf("an unreachable broker's sixth delay: %v, want %v", d, UnreachableRetryMax)
	}
	if d := m.RetryDelayFor(unreachable, 1); d != 100*time.Millisecond {
		t.Errorf("a first delay under the cap: %v", d)
	}
	if d := NewManager(Config[string]{}).RetryDelayFor(errors.New("sink refused"), 6); d != 32*time.Second {
		t.Errorf("another failure's sixth delay: %v", d)
	}
}
