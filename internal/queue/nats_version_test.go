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

// TestOpenRefusesOldServer: a server that says it runs 2.9.10 (a stub
// speaking the first lines of the NATS protocol) is refused at open, as
// a user error naming its version and the minimum.
func TestOpenRefusesOldServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
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
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = Open(ctx, "nats://"+l.Addr().String()+"/events/sluice")
	if !errors.Is(err, ErrNATSVersion) || !usererr.IsUser(err) || errors.Is(err, ErrUnreachable) {
		t.Fatalf("2.9.10: %v, want ErrNATSVersion, a user error", err)
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "2.9.10") || !strings.Contains(err.Error(), "2.10.0") {
		t.Errorf("%v: want the versions named", err)
	}
}
