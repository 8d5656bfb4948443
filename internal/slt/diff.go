package slt

import "strings"

// diff renders a line diff of want and got: " " common, "-" only in
// want, "+" only in got. Results are small, so a plain LCS table is fine.
func diff(want, got []string) string {
	n, m := len(want), len(got)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if want[i] == got[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && want[i] == got[j]:
			b.WriteString("  " + want[i] + "\n")
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] > lcs[i+1][j]):
			b.WriteString("+ " + got[j] + "\n")
			j++
		default:
			b.WriteString("- " + want[i] + "\n")
			i++
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
