package functions

import "testing"

// The checked loops against the bare loops they replaced, without the
// array plumbing around them.
func BenchmarkCheckedLoops(b *testing.B) {
	const n = 8192
	x, y, out := make([]int64, n), make([]int64, n), make([]int64, n)
	for i := range x {
		x[i], y[i] = int64(i*7919), int64(200+i%400)
	}
	b.Run("add/bare", func(b *testing.B) {
		for k := 0; k < b.N; k++ {
			for i := range out {
				out[i] = x[i] + y[i]
			}
		}
	})
	b.Run("add/checked", func(b *testing.B) {
		for k := 0; k < b.N; k++ {
			if addI64(out, x, y) {
				b.Fatal("overflow")
			}
		}
	})
	b.Run("mul/bare", func(b *testing.B) {
		for k := 0; k < b.N; k++ {
			for i := range out {
				out[i] = x[i] * y[i]
			}
		}
	})
	b.Run("mul/checked", func(b *testing.B) {
		for k := 0; k < b.N; k++ {
			if mulI64(out, x, y) {
				b.Fatal("overflow")
			}
		}
	})
	b.Run("neg/checked", func(b *testing.B) {
		for k := 0; k < b.N; k++ {
			if negInto(out, x) {
				b.Fatal("overflow")
			}
		}
	})
}
