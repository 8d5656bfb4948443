// Package s3server starts a real S3 server (the Versity gateway over a
// temp directory) on a loopback port for integration tests.
//
//	func TestMain(m *testing.M) {
//		srv, err := s3server.Start()
//		if err != nil {
//			log.Printf("S3 SERVER UNAVAILABLE: %v", err) // tests then call integration.Unavailable
//		}
//		code := m.Run()
//		srv.Stop() // nil-safe
//		os.Exit(code)
//	}
//
// or, inside one test: srv := s3server.StartTB(t), which skips the test
// loudly when no server can be started and stops it on cleanup.
package s3server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"sluice/internal/testutil/integration"
)

// Module is what Start installs when no versitygw binary is found.
const Module = "github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// Region is the region the server answers for.
const Region = "us-east-1"

// ErrUnavailable wraps every reason the server could not be started, so
// callers can tell "skip" from a test failure.
var ErrUnavailable = errors.New("S3 SERVER UNAVAILABLE")

// Server is a running gateway. Its credentials are test-only values.
type Server struct {
	Endpoint  string // "http://127.0.0.1:PORT"
	AccessKey string
	SecretKey string
	Region    string
	Dir       string // the posix root; one subdirectory per bucket

	cmd    *exec.Cmd
	exited chan error
	stderr *bytes.Buffer
	once   sync.Once
}

// StartTB starts a server for one test (or benchmark) and stops it on
// cleanup. When none can be started it ends tb through
// integration.Unavailable (a skip, a failure in CI) with a message that
// starts "S3 SERVER UNAVAILABLE".
func StartTB(tb testing.TB, extra ...string) *Server {
	tb.Helper()
	s, err := Start(extra...)
	if err != nil {
		integration.Unavailable(tb, "%v", err)
	}
	tb.Cleanup(s.Stop)
	return s
}

// Start finds or installs versitygw and runs it on a free loopback port
// over a fresh temp directory. The caller must Stop it. Errors wrap
// ErrUnavailable. extra are more gateway flags, e.g. "--event-nats-url",
// URL, "--event-nats-topic", SUBJECT (the NATS server must be up first).
func Start(extra ...string) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	var lastErr error
	// A port picked free can be taken before the gateway binds it; try a
	// few times rather than fail the whole test run.
	for attempt := 0; attempt < 3; attempt++ {
		s, err := start(bin, extra)
		if err == nil {
			return s, nil
		}
		lastErr = err
	}
	return nil, fmt.Errorf("%w: %v", ErrUnavailable, lastErr)
}

var installMu sync.Mutex

// Binary returns the path of a versitygw binary: $VERSITYGW if set, else
// $(go env GOPATH)/bin, else PATH, else it runs go install (minutes).
func Binary() (string, error) {
	installMu.Lock()
	defer installMu.Unlock()
	if p := os.Getenv("VERSITYGW"); p != "" {
		return p, nil
	}
	gopath := goEnv("GOPATH")
	var cand string
	if gopath != "" {
		cand = filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "bin", "versitygw")
		if fi, err := os.Stat(cand); err == nil && !fi.IsDir() {
			return cand, nil
		}
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	if _, err := exec.LookPath("go"); err != nil {
		return "", errors.New("versitygw not found and no go tool to install it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "install", Module).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go install %s: %v: %s", Module, err, lastLines(out, 5))
	}
	if cand != "" {
		if _, err := os.Stat(cand); err == nil {
			return cand, nil
		}
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("go install %s succeeded but the binary is not in GOPATH/bin or PATH", Module)
}

func goEnv(name string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func start(bin string, extra []string) (*Server, error) {
	port, err := integration.FreePort()
	if err != nil {
		return nil, err
	}
	sweepStale()
	dir, err := os.MkdirTemp("", "sluice-s3-*")
	if err != nil {
		return nil, err
	}
	if err := writeOwner(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := &Server{
		Endpoint:  fmt.Sprintf("http://127.0.0.1:%d", port),
		AccessKey: "sluicetestaccess",
		SecretKey: "sluicetestsecret0123456789",
		Region:    Region,
		Dir:       dir,
		stderr:    &bytes.Buffer{},
	}
	args := append([]string{"--quiet", "--port", fmt.Sprintf("127.0.0.1:%d", port), "--region", Region}, extra...)
	cmd := exec.Command(bin, append(args, "posix", dir)...)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+s.AccessKey, "ROOT_SECRET_KEY="+s.SecretKey)
	cmd.Stdout = s.stderr
	cmd.Stderr = s.stderr
	// Own process group, so Stop cannot miss a child and a test binary
	// killed by ^C does not take our signal handling with it.
	// Pdeathsig: a test binary killed without its Stop takes the gateway
	// with it rather than leaving it to init.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		removeOwner(dir)
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %v", bin, err)
	}
	s.cmd = cmd
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get(s.Endpoint + "/")
		if err == nil {
			resp.Body.Close()
			break // any HTTP answer (403 for an anonymous list) means it is up
		}
		select {
		case werr := <-exited:
			removeOwner(dir)
			os.RemoveAll(dir)
			return nil, fmt.Errorf("versitygw exited during start (%v): %s", werr, lastLines(s.stderr.Bytes(), 5))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("versitygw did not answer on %s within 20s: %s", s.Endpoint, lastLines(s.stderr.Bytes(), 5))
		}
	}
	s.exited = exited
	return s, nil
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// Stop kills the gateway and removes its directory. Safe on nil and more
// than once.
func (s *Server) Stop() {
	if s == nil {
		return
	}
	s.once.Do(func() {
		if s.cmd != nil && s.cmd.Process != nil {
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			if s.exited != nil {
				select {
				case <-s.exited:
				case <-time.After(5 * time.Second):
				}
			}
		}
		// Give the kernel a moment to release files before removal.
		for i := 0; i < 20; i++ {
			if err := os.RemoveAll(s.Dir); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		removeOwner(s.Dir)
	})
}

// PID returns the gateway's process id (0 when not running), so
// benchmarks can read its CPU time.
func (s *Server) PID() int {
	if s == nil || s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Client returns an S3 client for the server with its root credentials.
func (s *Server) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:       s.Region,
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
	})
}

// CreateBucket creates a bucket; an existing one is not an error.
func (s *Server) CreateBucket(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := s.Client().CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)})
	if err != nil && !strings.Contains(err.Error(), "BucketAlreadyOwnedByYou") && !strings.Contains(err.Error(), "BucketAlreadyExists") {
		return fmt.Errorf("creating bucket %s: %w", name, err)
	}
	return nil
}
