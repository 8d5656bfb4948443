package catalog

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Owner names this process for Table.Pending: its pid and host. A
// statement marks what it creates with it until it finishes, so a start
// after a kill -9 can tell a half-made table from one another process is
// making right now.
func Owner() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%d@%s", os.Getpid(), host)
}

// OwnerGone reports whether the process an Owner names has ended: it ran
// on this host and no process has its pid. One on another host, or a
// text it cannot read, counts as alive: leaving a half-made table is
// better than removing one being made.
func OwnerGone(owner string) bool {
	pidText, host, ok := strings.Cut(owner, "@")
	if !ok {
		return false
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return false
	}
	if me, _ := os.Hostname(); host != me {
		return false
	}
	return !processAlive(pid)
}
