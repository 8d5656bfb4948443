package server

// Reloadable are the settings a reload applies without a restart.
type Reloadable struct {
	// Users is Security.Users ("": the data dir's users file).
	Users string
	// TLSCert and TLSKey are Security's; new handshakes get the new pair.
	TLSCert, TLSKey string
	// LogLevel is the level Options.LogLevel is set to ("": unchanged).
	LogLevel string
}
