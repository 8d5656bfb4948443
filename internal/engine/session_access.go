package engine

import (
	"context"

	"sluice/internal/engine/access"
)

// Locations are the places outside the catalog a restricted session may
// reach (access.Locations: `sluice serve --allow-location`).
type Locations = access.Locations

// ParseLocations checks and canonicalizes prefixes (access.ParseLocations).
func ParseLocations(prefixes []string) (Locations, error) { return access.ParseLocations(prefixes) }

// RestrictData limits s to catalog tables plus allowed: a direct file
// query (csv.`path`, json.`...`, parquet.`...`), an s3:// path read with
// the server's credentials, a stream's checkpoint_location,
// dead_letter_location or queue, or a CREATE TABLE or CREATE DATABASE
// LOCATION elsewhere is refused with a Forbidden error naming who (e.g.
// "user bob (role read)"). `sluice serve` restricts every non-admin
// session; the CLI's and admin's are not.
func (s *Session) RestrictData(who string, allowed Locations) {
	s.mu.Lock()
	s.access = access.NewRule(who, allowed, s.eng.opts.DataDir)
	s.mu.Unlock()
}

// restriction is s's rule, nil when s is unrestricted.
func (s *Session) restriction() *access.Rule {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.access
}

// checkStreamLocations refuses a restricted session's stream options that
// name a location outside the allowed ones (access.Rule.CheckStreamLocations).
func (e *Engine) checkStreamLocations(ctx context.Context, opts map[string]string) error {
	return e.session(ctx).restriction().CheckStreamLocations(opts, e.opts.DataDir)
}
