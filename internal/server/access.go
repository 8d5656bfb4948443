package server

import (
	"fmt"

	"sluice/internal/engine"
)

// newSession starts an engine session for p. Below admin it is
// restricted (engine.Session.RestrictData): the server can read files a
// caller must not (catalog.json with its tables' credentials, the users
// file, /etc/passwd, s3:// with the server's own keys), so read and write
// callers reach data only through catalog tables and the
// --allow-location prefixes. With authentication off every caller is the
// admin and nothing is restricted.
func (s *Server) newSession(p principal) *engine.Session {
	sess := s.eng.NewSession(p.name)
	if s.auth != nil && p.role < RoleAdmin {
		sess.RestrictData(fmt.Sprintf("%s %s (role %s)", principalKind(p), p.name, p.role), s.allowed)
	}
	return sess
}
