package s3server

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"sluice/internal/testutil/integration"
)

// TestNothingOutlivesAKilledTest: a test binary SIGKILLed while its
// gateway runs (a timeout, a crash test's child) takes the gateway with
// it, and the next Start removes the folder it left.
func TestNothingOutlivesAKilledTest(t *testing.T) {
	if os.Getenv("SLUICE_S3_KILL_CHILD") != "" {
		srv, err := Start()
		if err != nil {
			fmt.Println("error", err)
			os.Exit(2)
		}
		fmt.Println(srv.cmd.Process.Pid, srv.Dir)
		select {}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNothingOutlivesAKilledTest$")
	cmd.Env = append(os.Environ(), "SLUICE_S3_KILL_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	f := strings.Fields(line)
	if len(f) != 2 || f[0] == "error" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		integration.Unavailable(t, "the child could not start a gateway: %q", line)
	}
	pid, _ := strconv.Atoi(f[0])
	dir := f[1]
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			_ = syscallKill(pid)
			t.Fatalf("gateway %d outlived its killed test binary", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the killed child's folder should still be there until a sweep: %v", err)
	}
	sweepStale()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s survived the sweep: %v", dir, err)
	}
	if _, err := os.Stat(dir + ".owner"); !os.IsNotExist(err) {
		t.Errorf("%s.owner survived the sweep: %v", dir, err)
	}
}
