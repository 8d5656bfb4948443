package queue

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"sluice/internal/usererr"
)

// TestParseNATS: both server-list forms (bare host:port after the first,
// or each with its scheme), tls:// making the connection secure, user
// info of the first server for all, and malformed URLs refused as
// ErrBadURL without their secrets.
func TestParseNATS(t *testing.T) {
	for _, c := range []struct {
		in      string
		servers []string
		secure  bool
	}{
		{"nats://h1:4222/S/C", []string{"nats://h1:4222"}, false},
		{"nats://h1:4222,h2:4223,h3:4224/S/C", []string{"nats://h1:4222", "nats://h2:4223", "nats://h3:4224"}, false},
		{"nats://h1:4222,nats://h2:4223/S/C?ack_wait=5s", []string{"nats://h1:4222", "nats://h2:4223"}, false},
		{"tls://h1:4222,h2:4223/S/C", []string{"tls://h1:4222", "tls://h2:4223"}, true},
		{"nats://h1:4222,tls://h2:4223/S/C", []string{"nats://h1:4222", "tls://h2:4223"}, true},
		{"NATS://u:pw@h1:4222,nats://h2:4223/S/C", []string{"nats://h1:4222", "nats://h2:4223"}, false},
		{"nats://h1,h2/S/C", []string{"nats://h1", "nats://h2"}, false},
	} {
		got, err := ParseNATS(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got.Servers, c.servers) || got.secure != c.secure || got.Stream != "S" || got.Consumer != "C" {
			t.Errorf("%s: servers %q secure %v stream %q consumer %q, want %q %v S C", c.in, got.Servers, got.secure, got.Stream, got.Consumer, c.servers, c.secure)
		}
	}
	got, _ := ParseNATS("nats://alice:pw@h1:4222,h2:4222/S/C")
	if got.user == nil || got.user.Username() != "alice" {
		t.Errorf("user info of the first server not kept: %v", got.user)
	}
	for _, in := range []string{
		"nats://h1:4222/S",
		"nats://h1:4222/S/C/D",
		"nats://h1:4222,/S/C",
		"nats://h1:4222,http://h2:80/S/C",
		"nats://u:s3cr3t@h1:4222,h2:x:y/S/C",
		"nats:/h1/S/C",
	} {
		_, err := ParseNATS(in)
		if !errors.Is(err, ErrBadURL) || !usererr.IsUser(err) {
			t.Errorf("%s: %v, want ErrBadURL, a user error", in, err)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: the error shows the password: %v", in, err)
		}
	}
}

// TestNATSOptionsFiles: a missing, empty or mismatched credential or TLS
// file is a user error naming the option at parse time (not a connect
// failure that looks like an outage).
func TestNATSOptionsFiles(t *testing.T) {
	dir := t.TempDir()
	junk := writeFile(t, dir, "junk", []byte("not a key"))
	for _, c := range []struct{ query, want string }{
		{"creds=" + dir + "/none.creds", "creds="},
		{"creds=" + junk, "no user JWT"},
		{"jwt=" + junk, "jwt= needs nkey="},
		{"creds=" + junk + "&nkey=" + junk, "give it alone"},
		{"nkey=" + junk, "nkey="},
		{"nkey=" + dir + "/none.nk", "nkey="},
		{"ca=" + junk, "no PEM certificate"},
		{"ca=" + dir + "/none.pem", "ca="},
		{"cert=" + junk, "cert= and key= go together"},
		{"cert=" + junk + "&key=" + junk, "cert="},
	} {
		tg, err := ParseNATS("nats://127.0.0.1:1/S/C?" + c.query)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tg.Options()
		if err == nil || !usererr.IsUser(err) || errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a user error saying %q", c.query, err, c.want)
		}
	}
}
