package types

// FloatOrder is Spark's order of floating-point values: NaN above every
// number (and equal to NaN), -0.0 equal to 0.0. Comparisons, sorts and
// file statistics all use it.
func FloatOrder(a, b float64) int {
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
