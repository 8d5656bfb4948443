package exec

import "testing"

func TestGoMemoryLimit(t *testing.T) {
	for _, c := range []struct{ limit, want int64 }{
		{0, 0}, {-1, -1},
		{100 << 20, 80 << 20}, // a fifth of a small limit
		{256 << 20, 256<<20 - 51<<20 - 1<<20/5},
		{4 << 30, 4<<30 - 64<<20}, // at most 64 MiB
	} {
		if got := GoMemoryLimit(c.limit); got != c.want {
			t.Errorf("GoMemoryLimit(%d) = %d, want %d", c.limit, got, c.want)
		}
	}
}
