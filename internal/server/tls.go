package server

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strings"
	"time"
)

// Security configures authentication and TLS.
type Security struct {
	// Users is the users file (`sluice passwd`, `sluice token create`);
	// "" uses <data dir>/users when it exists. With a users file every
	// request must authenticate.
	Users string
	// TLSCert and TLSKey are PEM files; with both the server speaks
	// HTTPS only.
	TLSCert, TLSKey string
	// AllowLocations are the local path prefixes and s3://bucket/prefix
	// locations non-admin callers may read directly and point their
	// streams' checkpoints at (--allow-location); none by default, so
	// they reach data only through catalog tables (access.go).
	AllowLocations []string
	// AllowedHosts are Host names (or name:port; an entry may list
	// several, comma-separated) answered without
	// authentication besides localhost, loopback addresses and the
	// listen address (host.go).
	AllowedHosts []string
	// AuditLog, when set, is the file every API statement and every
	// refused request (401, 403, 429) is logged to, one JSON object a
	// line, opened append-only with mode 0600 (audit.go).
	AuditLog string
}

// ErrNoAuth is returned by Serve for a listener outside loopback when no
// users file is configured: anyone who can reach the port could run any
// statement.
var ErrNoAuth = errors.New("refusing to listen outside loopback without authentication")

// checkListen refuses a non-loopback address without authentication.
func (s *Server) checkListen(addr net.Addr) error {
	if s.auth != nil || isLoopback(addr) {
		return nil
	}
	return fmt.Errorf("%w on %s: add a user with `sluice passwd --users %s --role admin NAME` (or pass --users FILE), or listen on 127.0.0.1",
		ErrNoAuth, addr, DefaultUsersFile(s.opts.DataDir))
}

// checkListenAddr is checkListen before binding: a host that does not
// resolve to a loopback address (an empty host is every interface) is
// refused without ever listening on it.
func (s *Server) checkListenAddr(listen string) error {
	addr, err := net.ResolveTCPAddr("tcp", listen)
	if err != nil {
		return fmt.Errorf("listen address %s: %w", listen, err)
	}
	return s.checkListen(addr)
}

func isLoopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		// A unix socket is as private as its file mode.
		_, unix := addr.(*net.UnixAddr)
		return unix
	}
	return tcp.IP != nil && tcp.IP.IsLoopback()
}

// httpServer is the http.Server for h with the timeouts that keep slow
// clients from holding connections: headers and body must arrive in
// time, idle keep-alives are closed. The response's own deadline starts
// at its first byte (deadlineWriter).
func (s *Server) httpServer(h http.Handler) (*http.Server, error) {
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          log.New(logWriter(s.logf), "", 0),
	}
	sec := s.opts.Security
	if (sec.TLSCert == "") != (sec.TLSKey == "") {
		return nil, errors.New("TLS needs both --tls-cert and --tls-key")
	}
	if sec.TLSCert != "" {
		if s.cert.Load() == nil {
			cert, err := tls.LoadX509KeyPair(sec.TLSCert, sec.TLSKey)
			if err != nil {
				return nil, fmt.Errorf("loading the TLS certificate: %w", err)
			}
			s.cert.CompareAndSwap(nil, &cert)
		}
		// Read at each handshake, so a reload's new pair serves the next
		// connection and open ones keep theirs.
		hs.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
			return s.cert.Load(), nil
		}}
	}
	return hs, nil
}

// logWriter sends net/http's own log lines (TLS handshake errors, ...)
// to the server's log.
type logWriter func(string, ...any)

func (w logWriter) Write(b []byte) (int, error) {
	w("%s", strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// scheme is https with TLS configured.
func (s *Server) scheme() string {
	if s.opts.Security.TLSCert != "" {
		return "https"
	}
	return "http"
}

// serveOn serves hs on ln, over TLS when configured.
func serveOn(hs *http.Server, ln net.Listener) error {
	if hs.TLSConfig != nil {
		return hs.Serve(tls.NewListener(ln, hs.TLSConfig))
	}
	return hs.Serve(ln)
}
