package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeConfigSIGHUP: a server started with --config survives SIGHUP,
// applies the file's new log level, logs the key that needs a restart,
// and keeps its settings when the new file is bad.
func TestServeConfigSIGHUP(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "sluice.toml")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("[log]\nlevel = \"info\"\n[limits]\nmax_rows = 5\n")
	p := startServe(t, filepath.Join(root, "data"), "--config", cfg)
	hup := func(want string) {
		t.Helper()
		_ = p.cmd.Process.Signal(syscall.SIGHUP)
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(p.log(), want); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %q after SIGHUP: %s", want, p.log())
			}
		}
	}
	write("[log]\nlevel = \"debug\"\n[limits]\nmax_rows = 6\n")
	hup(`msg="config change needs a restart" keys=limits.max_rows`)
	hup(`msg=reloaded parts=config,log_level`)
	write("[limits]\nmax_row = 6\n")
	hup(`unknown key limits.max_row; did you mean \"limits.max_rows\"?`)
	if out := mustRemote(t, p.url, "SELECT 1 AS one"); !strings.Contains(out, "one") {
		t.Fatalf("after SIGHUP: %s", out)
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-p.done; err != nil {
		t.Fatalf("exit after SIGTERM: %v: %s", err, p.log())
	}
}

// TestServePrintConfig: --print-config prints the file overridden by
// the environment and the flags; an unknown key fails, naming it.
func TestServePrintConfig(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "sluice.toml")
	if err := os.WriteFile(cfg, []byte("[limits]\nmax_rows = 5\nmax_body = 10\nquery_timeout = \"1m\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, err := sluiceCmd("", []string{"SLUICE_LIMITS_MAX_BODY=20", "SLUICE_LIMITS_QUERY_TIMEOUT=2m"}, "serve", "--config", cfg, "--print-config", "--query-timeout", "3m")
	if err != nil {
		t.Fatalf("%v: %s", err, errs)
	}
	for _, want := range []string{"max_rows = 5\n", "max_body = 20\n", `query_timeout = "3m"`} {
		if !strings.Contains(out, want) {
			t.Errorf("--print-config lacks %q:\n%s", want, out)
		}
	}
	if err := os.WriteFile(cfg, []byte("[limits]\nmax_rowz = 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errs, err = sluiceCmd("", nil, "serve", "--config", cfg, "--print-config")
	if want := `sluice.toml:2: unknown key limits.max_rowz; did you mean "limits.max_rows"?`; err == nil || !strings.Contains(errs, want) {
		t.Fatalf("unknown key: %v: %s", err, errs)
	}
}
