package sparkstmt

import (
	"regexp"
	"strings"
)

// sparkPattern reports whether name matches a SHOW ... LIKE pattern as
// Spark reads one (StringUtils.filterPattern): alternatives split on
// '|', '*' any run of characters, the rest a regular expression,
// matched whole and case-insensitively. "" matches everything.
func sparkPattern(pattern, name string) bool {
	if strings.TrimSpace(pattern) == "" {
		return true
	}
	for _, alt := range strings.Split(strings.TrimSpace(pattern), "|") {
		re, err := regexp.Compile("(?i)^(?:" + strings.ReplaceAll(strings.TrimSpace(alt), "*", ".*") + ")$")
		if err != nil {
			// Spark skips a pattern that is not a valid expression.
			continue
		}
		if re.MatchString(name) {
			return true
		}
	}
	return false
}
