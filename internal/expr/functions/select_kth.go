package functions

import (
	"math/bits"
	"slices"
)

// selectKth reorders vs (no NaN) so that vs[k] is the value a sort would
// put there, everything before it is <= it and everything after >= it.
// A percentile needs one rank, not the order of all values: this costs
// about 2-3 comparisons per value where slices.Sort costs log2(n), which
// is the whole of approx_percentile's final step over many small groups.
// Quickselect with a median-of-three pivot; past 2 log2(n) rounds
// (inputs that defeat the pivot) the rest is sorted, so the worst case
// stays n log n.
func selectKth(vs []float64, k int) {
	lo, hi := 0, len(vs) // the rank is within vs[lo:hi]
	budget := 2 * bits.Len(uint(len(vs)))
	for hi-lo > 16 {
		if budget == 0 {
			slices.Sort(vs[lo:hi])
			return
		}
		budget--
		p := pivotIndex(vs, lo, hi)
		vs[lo], vs[p] = vs[p], vs[lo]
		pivot := vs[lo]
		// Hoare partition around the pivot at vs[lo]: afterwards
		// vs[lo:j+1] <= pivot <= vs[j+1:hi].
		i, j := lo, hi-1
		for {
			for vs[i] < pivot {
				i++
			}
			for vs[j] > pivot {
				j--
			}
			if i >= j {
				break
			}
			vs[i], vs[j] = vs[j], vs[i]
			i++
			j--
		}
		if k <= j {
			hi = j + 1
		} else {
			lo = j + 1
		}
	}
	// Insertion sort of the last few.
	for i := lo + 1; i < hi; i++ {
		for j := i; j > lo && vs[j] < vs[j-1]; j-- {
			vs[j], vs[j-1] = vs[j-1], vs[j]
		}
	}
}

// pivotIndex is the median of the first, middle and last of vs[lo:hi].
func pivotIndex(vs []float64, lo, hi int) int {
	a, b, c := lo, lo+(hi-lo)/2, hi-1
	if vs[b] < vs[a] {
		a, b = b, a
	}
	if vs[c] < vs[b] {
		b = c
		if vs[b] < vs[a] {
			b = a
		}
	}
	return b
}
