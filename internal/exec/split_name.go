package exec

import "sluice/internal/connector"

// SplitName is how errors name a split: its connector.NamedSplit name
// when it has one (a file's URI, without the version its ID carries,
// which means nothing to a user and differs between copies of a file),
// else its ID.
func SplitName(s connector.Split) string {
	if n, ok := s.(connector.NamedSplit); ok {
		return n.Name()
	}
	return s.ID()
}
