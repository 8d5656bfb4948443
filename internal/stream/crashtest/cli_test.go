package crashtest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCLIForeground: `sluice sql -e "INSERT STREAM ..."` prints one
// progress line per epoch on stderr and, on SIGINT or SIGTERM, stops at
// the epoch boundary and exits 0; started again it resumes from its
// checkpoint without reading a file twice.
func TestCLIForeground(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "sluice")
	build := exec.Command("go", "build", "-o", bin, "sluice/cmd/sluice")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building sluice: %v\n%s", err, out)
	}
	in := filepath.Join(dir, "in")
	writeInputs(t, in, 3, 10)
	data := filepath.Join(dir, "data")
	setup := "CREATE TABLE src (id BIGINT, status INT, msg STRING) USING json LOCATION '" + in + "/'; " +
		"CREATE TABLE out (id BIGINT, status INT, msg STRING) USING json LOCATION '" + filepath.Join(dir, "out") + "/'"
	if out, err := exec.Command(bin, "sql", "--data-dir", data, "-e", setup).CombinedOutput(); err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	stmt := "INSERT STREAM INTO out SELECT id, status, msg FROM src WITH (name = 'feed', trigger = '200 milliseconds', max_files_per_trigger = 1)"
	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		if i == 1 {
			if err := os.WriteFile(filepath.Join(in, "z.json"), []byte("{\"id\": 1000, \"status\": 200, \"msg\": \"z\"}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(bin, "sql", "--data-dir", data, "-e", stmt)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		want := 3 // epochs before the signal: one file each
		if i == 1 {
			want = 1
		}
		sc := bufio.NewScanner(stderr)
		var lines []string
		for len(lines) < want && sc.Scan() {
			if strings.Contains(sc.Text(), "[feed] epoch") {
				lines = append(lines, sc.Text())
			}
		}
		if len(lines) != want {
			t.Fatalf("want %d progress lines, got %v", want, lines)
		}
		t0 := time.Now()
		_ = cmd.Process.Signal(sig)
		var rest bytes.Buffer
		for sc.Scan() {
			rest.WriteString(sc.Text() + "\n")
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%s: want a clean exit, got %v\nstderr after the signal: %s", sig, err, rest.String())
		}
		t.Logf("%s: stopped in %s; lines %q; stdout %q", sig, time.Since(t0).Round(time.Millisecond), lines, strings.TrimSpace(stdout.String()))
		for j, l := range lines {
			if !strings.Contains(l, ": 1 file,") {
				t.Fatalf("line %d: %s", j, l)
			}
		}
		if i == 1 && !strings.Contains(lines[0], "epoch 3:") {
			t.Fatalf("the restart should resume at epoch 3 with the new file: %s", lines[0])
		}
	}
	out, err := exec.Command(bin, "sql", "--data-dir", data, "-e", "SELECT count(*), count(DISTINCT id) FROM out").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "31") || strings.Count(string(out), "31") != 2 {
		t.Fatalf("out should hold 31 distinct rows: %v\n%s", err, out)
	}
}
