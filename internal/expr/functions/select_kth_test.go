package functions

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSelectKth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := map[string]func(n int) []float64{
		"random": func(n int) []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			return v
		},
		"few distinct": func(n int) []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = float64(rng.IntN(3))
			}
			return v
		},
		"sorted": func(n int) []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = float64(i)
			}
			return v
		},
		"reversed": func(n int) []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = float64(n - i)
			}
			return v
		},
		"equal": func(n int) []float64 { return make([]float64, n) },
		"organ pipe": func(n int) []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = float64(min(i, n-i))
			}
			return v
		},
	}
	for name, gen := range inputs {
		for _, n := range []int{1, 2, 3, 16, 17, 100, 1000, 5000} {
			v := gen(n)
			want := slices.Sorted(slices.Values(v))
			for _, k := range []int{0, n / 2, n * 99 / 100, n - 1} {
				got := slices.Clone(v)
				selectKth(got, k)
				if got[k] != want[k] {
					t.Fatalf("%s n=%d k=%d: got %v, want %v", name, n, k, got[k], want[k])
				}
				for i := range got {
					if i < k && got[i] > got[k] || i > k && got[i] < got[k] {
						t.Fatalf("%s n=%d k=%d: vs[%d]=%v on the wrong side of %v", name, n, k, i, got[i], got[k])
					}
				}
				if !slices.Equal(slices.Sorted(slices.Values(got)), want) {
					t.Fatalf("%s n=%d k=%d: values changed", name, n, k)
				}
			}
		}
	}
}

func BenchmarkPercentileResult(b *testing.B) {
	// Q3's shape: many groups of ~160 values, one p99 each.
	rng := rand.New(rand.NewPCG(3, 4))
	sk := make([]*KLL, 20000)
	for g := range sk {
		sk[g] = &KLL{K: 10000}
		for i := 0; i < 160; i++ {
			sk[g].Add(rng.ExpFloat64() * 20)
		}
	}
	var scratch []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range sk {
			s.quantiles([]float64{0.99}, &scratch)
		}
	}
}
