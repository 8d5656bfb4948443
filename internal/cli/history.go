package cli

import (
	"strings"

	"sluice/internal/sql"
)

// historyEntry is what the shell keeps of a statement in its history
// file: the text as typed, unless it holds a credential (a secret OPTIONS
// or WITH value, URL user info), then the statement as the engine prints
// it, with the credential as ***. Recalling it shows where a secret was
// without storing it.
func historyEntry(text string) string {
	stmts, err := sql.Parse(text)
	if err != nil {
		// Not a statement; still never keep a URL's password.
		return sql.RedactText(text)
	}
	secret := false
	out := make([]string, len(stmts))
	for i, st := range stmts {
		out[i] = st.String()
		if strings.Contains(out[i], "***") && !strings.Contains(st.Text(), "***") {
			secret = true
		}
	}
	if !secret {
		return sql.RedactText(text)
	}
	return strings.Join(out, "; ") + ";"
}
