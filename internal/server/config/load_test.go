package config

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// load is Load of the command line args (after `serve`) and env.
func load(t *testing.T, args []string, env ...string) (Config, error) {
	t.Helper()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fl := Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return Load(fl, env)
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sluice.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const everySetting = `
[server]
listen = "0.0.0.0:9300"
data_dir = "/srv/sluice"
max_concurrent_epochs = 3
stop_timeout = "1m30s"
query_retention = "-1s"
session_idle = "2h"

[streams]
retry_initial = "250ms"
retry_max = "1m"

[log]
format = "json"
level = "debug"
audit_file = "/var/log/sluice/audit.jsonl"

[auth]
users = "/etc/sluice/users"
allowed_hosts = ["sluice.internal", "a,b"]
allow_locations = ["/data/", "s3://bucket/prefix/", "quote\"d \\ path"]

[tls]
cert = "/etc/sluice/cert.pem"
key = "/etc/sluice/key.pem"

[limits]
max_body = 2048
query_timeout = "45s"
max_rows = 17
max_concurrent_queries = 9
max_result_bytes = 1000000
write_timeout = "5s"
`

// TestRoundTrip: a file setting everything, printed and read back, is
// the same configuration.
func TestRoundTrip(t *testing.T) {
	first, err := load(t, []string{"--config", writeConfig(t, everySetting)})
	if err != nil {
		t.Fatal(err)
	}
	def := Default()
	for _, f := range fields {
		if f.format(&first) == f.format(&def) {
			t.Errorf("%s: the test file leaves it at its default", f.Name())
		}
	}
	var out bytes.Buffer
	if err := Print(&out, first); err != nil {
		t.Fatal(err)
	}
	second, err := load(t, []string{"--config", writeConfig(t, out.String())})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !reflect.DeepEqual(first, second) {
		t.Fatalf("round trip differs:\n%+v\n%+v\n%s", first, second, out.String())
	}
}

// TestPrecedence: defaults < file < environment < flags given.
func TestPrecedence(t *testing.T) {
	path := writeConfig(t, `
[server]
listen = "127.0.0.1:1"
[log]
level = "debug"
[limits]
max_rows = 5
query_timeout = "1m"
[auth]
allow_locations = ["/f1", "/f2"]
allowed_hosts = ["file-host"]
`)
	env := []string{"SLUICE_LIMITS_MAX_ROWS=6", "SLUICE_LOG_LEVEL=warn", "SLUICE_AUTH_ALLOWED_HOSTS=e1, e2", "SLUICE_DATA_DIR=/ignored-here", "SLUICE_SERVER=http://elsewhere", "HOME=/root"}
	c, err := load(t, []string{"--config", path, "--max-rows", "7", "--allow-location", "/g1", "--allow-location", "/g2"}, env...)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{
		"listen": c.Server.Listen, "level": c.LogLevel, "max_rows": c.Server.Limits.MaxRows,
		"query_timeout": c.Server.Limits.QueryTimeout.String(), "locations": c.Server.Security.AllowLocations,
		"hosts": c.Server.Security.AllowedHosts, "write_timeout": c.Server.Limits.WriteTimeout.String(),
	}
	want := map[string]any{
		"listen": "127.0.0.1:1", "level": "warn", "max_rows": 7, "query_timeout": "1m0s",
		"locations": []string{"/g1", "/g2"}, "hosts": []string{"e1", "e2"}, "write_timeout": "30s",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
}

// TestUnknownKey: a key, table or variable that is no setting is an
// error naming it (with the file's line) and what it was meant to be.
func TestUnknownKey(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"[limits]\nmax_rows = 1\n\nmax_row = 5\n", `sluice.toml:4: unknown key limits.max_row; did you mean "limits.max_rows"?`},
		{"[server]\nlisten = \"x:1\"\n[limit]\nmax_rows = 5\n", `sluice.toml:3: unknown section [limit]; did you mean "limits"?`},
		{"[server]\nmax_rows = 5\n", `sluice.toml:2: unknown key server.max_rows; max_rows belongs in [limits]`},
		{"listen = \"x:1\"\n", `sluice.toml:1: unknown key listen; listen belongs in [server]`},
		{"limits.max_rowz = 3\n", `sluice.toml:1: unknown key limits.max_rowz; did you mean "limits.max_rows"?`},
	} {
		_, err := load(t, []string{"--config", writeConfig(t, tc.file)})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s", tc.file, err, tc.want)
		}
	}
	_, err := load(t, nil, "SLUICE_LIMITS_MAX_ROW=5")
	if want := `SLUICE_LIMITS_MAX_ROW: unknown setting limits.max_row; did you mean "SLUICE_LIMITS_MAX_ROWS"?`; err == nil || err.Error() != want {
		t.Errorf("env: got %v, want %s", err, want)
	}
}

// TestBadValue: a value of the wrong type or form names its key.
func TestBadValue(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"[limits]\nmax_rows = \"many\"\n", `sluice.toml:2: limits.max_rows: want an integer, got a string`},
		{"[limits]\n\nquery_timeout = \"soon\"\n", `sluice.toml:3: limits.query_timeout: want a duration like "30s" or "5m", got "soon"`},
		{"[limits]\nquery_timeout = 30\n", `sluice.toml:2: limits.query_timeout: want a duration string like "30s", got an integer`},
		{"[log]\nlevel = \"loud\"\n", `sluice.toml:2: log.level: log level "loud": want debug, info, warn or error`},
		{"[auth]\nallow_locations = [1]\n", `sluice.toml:2: auth.allow_locations: want strings, got an integer`},
		{"[limits\n", `to end table name`},
	} {
		_, err := load(t, []string{"--config", writeConfig(t, tc.file)})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s", tc.file, err, tc.want)
		}
	}
	_, err := load(t, nil, "SLUICE_LIMITS_QUERY_TIMEOUT=soon")
	if want := `SLUICE_LIMITS_QUERY_TIMEOUT (limits.query_timeout): want a duration`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("env: got %v, want %s", err, want)
	}
}

// TestNeedsRestart names the changed settings a reload cannot apply.
func TestNeedsRestart(t *testing.T) {
	old := Default()
	next := old
	next.LogLevel, next.Server.Security.Users, next.Server.Limits.MaxRows = "debug", "/u", 3
	if got := NeedsRestart(old, next); !reflect.DeepEqual(got, []string{"limits.max_rows"}) {
		t.Fatalf("got %v", got)
	}
}
