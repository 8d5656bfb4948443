package storage

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestSweepTempKeepsLiveFilesAndRemovesOrphans(t *testing.T) {
	dir := t.TempDir()
	live, err := CreateTemp(dir, "sluice-sink-*")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Remove()
	// An orphan: a file a killed process left behind, with no lock held.
	orphan := filepath.Join(dir, "sluice-sink-orphan")
	if err := os.WriteFile(orphan, []byte("half a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(other, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	n, err := SweepTemp(dir, "sluice-sink-")
	if err != nil || n != 1 {
		t.Fatalf("SweepTemp = %d, %v; want 1 removed", n, err)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("orphan still there: %v", err)
	}
	for _, p := range []string{live.Name(), other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", p, err)
		}
	}
	if n, err := SweepTemp(filepath.Join(dir, "missing"), "x"); n != 0 || err != nil {
		t.Errorf("missing dir: %d, %v", n, err)
	}
}

// TestSweepTempAfterKill: a child process creates a scratch file and is
// killed with SIGKILL; the kernel drops its lock and the sweep removes it.
func TestSweepTempAfterKill(t *testing.T) {
	if os.Getenv("SLUICE_TEMP_CHILD") != "" {
		f, err := CreateTemp(os.Getenv("SLUICE_TEMP_CHILD"), "sluice-sink-*")
		if err != nil {
			os.Exit(2)
		}
		os.Stdout.WriteString(f.Name() + "\n")
		select {}
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=TestSweepTempAfterKill")
	cmd.Env = append(os.Environ(), "SLUICE_TEMP_CHILD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	nr, _ := out.Read(buf)
	if nr == 0 {
		t.Fatal("child wrote nothing")
	}
	if n, _ := SweepTemp(dir, "sluice-sink-"); n != 0 {
		t.Fatalf("swept a file its live creator holds")
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if n, err := SweepTemp(dir, "sluice-sink-"); n != 1 || err != nil {
		t.Fatalf("after SIGKILL: SweepTemp = %d, %v; want 1", n, err)
	}
}
