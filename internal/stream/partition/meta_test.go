package partition

import (
	"context"
	"strings"
	"testing"

	"sluice/internal/storage"
	"sluice/internal/stream"
)

// TestCheckMeta: the first start fixes the partition count and the state
// fingerprint; a start with either changed is refused.
func TestCheckMeta(t *testing.T) {
	ctx := context.Background()
	cp := &stream.Checkpoint{Store: storage.NewMemStore("cp"), Prefix: "s/"}
	if err := CheckMeta(ctx, cp, 16, "abc"); err != nil {
		t.Fatal(err)
	}
	if err := CheckMeta(ctx, cp, 16, "abc"); err != nil {
		t.Fatalf("same again: %v", err)
	}
	if err := CheckMeta(ctx, cp, 8, "abc"); err == nil || !strings.Contains(err.Error(), "partitions = 16") {
		t.Fatalf("another count: %v", err)
	}
	if err := CheckMeta(ctx, cp, 16, "def"); err == nil || !strings.Contains(err.Error(), "another aggregation") {
		t.Fatalf("another fingerprint: %v", err)
	}
}
