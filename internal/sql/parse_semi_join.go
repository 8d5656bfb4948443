package sql

// semiAnti reads SEMI or ANTI, the kind after LEFT in a semi or anti join.
func semiAnti(t token) (JoinKind, bool) {
	switch {
	case isKw(t, "SEMI"):
		return JoinSemi, true
	case isKw(t, "ANTI"):
		return JoinAnti, true
	}
	return 0, false
}
