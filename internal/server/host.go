package server

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
)

// checkHost is the defence against DNS rebinding. Without
// authentication, whoever reaches the port is the admin, and a web page
// can reach a loopback port: it rebinds its own name (evil.example) to
// 127.0.0.1, and the browser, seeing the same origin, lets it read the
// answers. Such a request still says Host: evil.example, so the server
// answers only Hosts it is known by: localhost, a loopback address, the
// address it listens on, or one of Security.AllowedHosts. With
// authentication any Host passes: the rebound page has no credentials
// (a browser keeps them per origin).
func (s *Server) checkHost(next http.Handler) http.Handler {
	allowed := map[string]bool{}
	for _, list := range s.opts.Security.AllowedHosts {
		for _, h := range strings.Split(list, ",") {
			if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
				allowed[h] = true
			}
		}
	}
	if h := listenHost(s.opts.Listen); h != "" {
		allowed[h] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.auth == nil && !s.hostAllowed(r.Host, allowed) {
			s.refuse(w, r, principal{}, &forbiddenError{msg: fmt.Sprintf("Host %q is not one this server answers without authentication: "+
				"use localhost, a loopback address or its --listen address, or add the name with --allowed-hosts "+
				"(this protects against DNS rebinding)", r.Host)})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether a request's Host (name or name:port) is
// one the server answers without authentication. An empty Host (an
// HTTP/1.0 client) is no browser's, so it passes.
func (s *Server) hostAllowed(host string, allowed map[string]bool) bool {
	host = strings.ToLower(host)
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.Trim(name, "[]"), ".")
	switch {
	case host == "", name == "localhost", allowed[host], allowed[name]:
		return true
	case name == s.servedHost.Load():
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// listenHost is the host part of a listen address, lower case ("" for
// none or an unspecified address such as 0.0.0.0, which no request
// names).
func listenHost(addr string) string {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		h = addr
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsUnspecified() {
		return ""
	}
	return strings.ToLower(strings.Trim(h, "[]"))
}

// servedAddr records the address Serve listens on (its port may have been
// picked by the system), for hostAllowed.
type servedAddr struct{ atomic.Value }

func (a *servedAddr) Load() string {
	s, _ := a.Value.Load().(string)
	return s
}
