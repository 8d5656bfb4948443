package integration

import "net"

// FreePort is a loopback TCP port nothing listens on now, for a server a
// test starts (another process may take it first: callers retry or fail
// loudly on the bind).
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
