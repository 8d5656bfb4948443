package plan

import "strings"

func joinStrings(ss []string) string { return strings.Join(ss, ", ") }
