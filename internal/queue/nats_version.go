package queue

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sluice/internal/usererr"
)

// MinNATSServer is the oldest nats-server Sluice connects to.
//
// Sluice's ack floors and the owners' committed partial sequences assume
// a stream never hands out a sequence twice. nats-server 2.9.10 (the
// Debian package) did, after a quorum loss of a replicated stream, in
// 3 of 5 runs of the cluster test of issue 26. The release notes do not
// name one fix for it: the 2.9 line kept changing the clustered stream
// reset and failed-proposal (clfs/clseq) bookkeeping until 2.9.21
// (nats-server #4177 in 2.9.17, #4365 and #4366 in 2.9.21), and
// 2.10.0 rewrote much of it. No release was shown safe by a test here,
// so the floor is 2.10.0, the first release after those fixes, not a
// version the notes prove correct.
var MinNATSServer = [3]int{2, 10, 0}

// ErrNATSVersion wraps the refusal of a server older than MinNATSServer.
var ErrNATSVersion = errors.New("nats-server version not supported")

// CheckServerVersion refuses a server version before MinNATSServer,
// naming both; a version it cannot read passes (a build from source
// may report anything), as does "" (no INFO yet).
func CheckServerVersion(version string) error {
	v, ok := parseServerVersion(version)
	if !ok || !versionLess(v, MinNATSServer) {
		return nil
	}
	min := fmt.Sprintf("%d.%d.%d", MinNATSServer[0], MinNATSServer[1], MinNATSServer[2])
	return usererr.Wrap(usererr.Invalid, fmt.Errorf("%w: the server runs %s; versions before %s can reuse stream sequence numbers after a quorum loss, which breaks exactly-once: upgrade to %s or later",
		ErrNATSVersion, version, min, min))
}

// parseServerVersion reads major.minor.patch, ignoring a pre-release or
// build suffix (2.10.0-RC.1 reads as 2.10.0) and a leading v.
func parseServerVersion(s string) ([3]int, bool) {
	var v [3]int
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(s, "-+ "); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func versionLess(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
