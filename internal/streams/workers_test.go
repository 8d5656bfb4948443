package streams

import (
	"testing"

	"sluice/internal/storage"
	"sluice/internal/stream"
)

func TestWorkersOption(t *testing.T) {
	for v, want := range map[string]int{"": 1, "1": 1, " 4 ": 4, "1024": 1024} {
		if got, err := workersOption(map[string]string{"workers": v}); err != nil || got != want {
			t.Errorf("workers %q: %d, %v; want %d", v, got, err, want)
		}
	}
	for _, v := range []string{"0", "-1", "1025", "two"} {
		if _, err := workersOption(map[string]string{"workers": v}); err == nil {
			t.Errorf("workers %q: no error", v)
		}
	}
}

func TestSlotCheckpoint(t *testing.T) {
	base := &stream.Checkpoint{Store: storage.NewMemStore("t"), Prefix: "cp/"}
	if got := slotCheckpoint(base, 2); got.Prefix != "cp/workers/2/" || got.Store != base.Store {
		t.Errorf("slot 2: prefix %q", got.Prefix)
	}
}
