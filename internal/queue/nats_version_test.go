package queue

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"sluice/internal/testutil/natsserver"
	"sluice/internal/usererr"
)

func TestCheckServerVersion(t *testing.T) {
	for _, c := range []struct {
		version string
		refused bool
	}{
		{"2.9.10", true},
		{"2.9.25", true},
		{"2.2.0", true},
		{"1.4.1", true},
		{"2.10", false},
		{"2.10.0", false},
		{"2.10.0-RC.1", false},
		{"v2.11.3", false},
		{"2.15.2", false},
		{"3.0.0", false},
		{"2.9.10-beta+abc", true},
		{"", false},
		{"dev", false},
	} {
		err := CheckServerVersion(c.version)
		if (err != nil) != c.refused {
			t.Errorf("%q: %v, want refused=%v", c.version, err, c.refused)
			continue
		}
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrNATSVersion) || !usererr.IsUser(err) {
			t.Errorf("%q: %v, want ErrNATSVersion, a user error", c.version, err)
		}
		if !strings.Contains(err.Error(), c.version) || !strings.Contains(err.Error(), "2.10.0") {
			t.Errorf("%q: %v, want the server's version and the minimum named", c.version, err)
		}
	}
}

// oldServer is a stub that speaks the first lines of the NATS protocol
// as a 2.9.10 server: INFO, then PONG to each PING. It returns its
// host:port.
func oldServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				fmt.Fprintf(c, "INFO {\"server_id\":\"old\",\"version\":\"2.9.10\",\"proto\":1,\"max_payload\":1048576,\"headers\":true}\r\n")
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if strings.HasPrefix(line, "PING") {
						fmt.Fprintf(c, "PONG\r\n")
					}
				}
			}(c)
		}
	}()
	return l.Addr().String()
}

// TestOpenRefusesOldServer: a server that says it runs 2.9.10 is
// refused at open, as a user error naming its version and the minimum.
func TestOpenRefusesOldServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Open(ctx, "nats://"+oldServer(t)+"/events/sluice")
	if !errors.Is(err, ErrNATSVersion) || !usererr.IsUser(err) || errors.Is(err, ErrUnreachable) {
		t.Fatalf("2.9.10: %v, want ErrNATSVersion, a user error", err)
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "2.9.10") || !strings.Contains(err.Error(), "2.10.0") {
		t.Errorf("%v: want the versions named", err)
	}
}

// TestReconnectRefusesOldServer: a queue connected to a current server
// whose list also names a 2.9.10 one drops the connection when it
// reconnects to the old one (its server died): the queue is
// unreachable, and opening again refuses the old server by version.
func TestReconnectRefusesOldServer(t *testing.T) {
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("events", "s3.>"); err != nil {
		t.Fatal(err)
	}
	raw := "nats://" + hostPort(ns) + ",nats://" + oldServer(t) + "/events/sluice"
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var q *NATS
	for q == nil { // the client picks a server of the list at random
		var err error
		if q, err = OpenNATS(ctx, raw); err != nil && !errors.Is(err, ErrNATSVersion) {
			t.Fatal(err)
		}
	}
	defer q.Close()
	ns.Down()
	for !q.nc.IsClosed() {
		if ctx.Err() != nil {
			t.Fatalf("still %s after reconnecting to 2.9.10", q.nc.Status())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := q.Check(); !errors.Is(err, ErrUnreachable) {
		t.Errorf("check: %v, want ErrUnreachable", err)
	}
	if _, err := OpenNATS(ctx, raw); !errors.Is(err, ErrNATSVersion) {
		t.Errorf("open with only 2.9.10 up: %v, want ErrNATSVersion", err)
	}
}
