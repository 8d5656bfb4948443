package queue

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net"
	"os/exec"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/usererr"
)

// TestClassifyNATSClientErrors: every error variable the client
// library exports has its class, and the table misses none of them (the
// library's source is read, so an upgrade that adds one fails here
// until it is classified).
func TestClassifyNATSClientErrors(t *testing.T) {
	for _, c := range clientErrs {
		if got := ClassifyNATS(c.err); got != c.class {
			t.Errorf("%s (%q): %s, want %s", c.name, c.err, got, c.class)
		}
		wrapped := fmt.Errorf("fetching from jetstream S/C: %w", c.err)
		if got := ClassifyNATS(wrapped); got != c.class {
			t.Errorf("wrapped %s: %s, want %s", c.name, got, c.class)
		}
	}
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/nats-io/nats.go").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	have := map[string]bool{}
	for _, c := range clientErrs {
		have[c.name] = true
	}
	root := strings.TrimSpace(string(dir))
	for _, sub := range []string{"", "/jetstream"} {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, root+sub, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			for _, f := range p.Files {
				for _, d := range f.Decls {
					g, ok := d.(*ast.GenDecl)
					if !ok || g.Tok != token.VAR {
						continue
					}
					for _, s := range g.Specs {
						for _, n := range s.(*ast.ValueSpec).Names {
							if name := p.Name + "." + n.Name; strings.HasPrefix(n.Name, "Err") && !have[name] {
								t.Errorf("%s is not in clientErrs: classify it", name)
							}
						}
					}
				}
			}
		}
	}
}

// TestClassifyNATSShapes: the errors that reach Sluice other than as the
// library's variables: JetStream API errors by code, a server's -ERR
// text, network errors, and the texts the cluster runs printed.
func TestClassifyNATSShapes(t *testing.T) {
	api := func(code, errCode int, desc string) error {
		return &jetstream.APIError{Code: code, ErrorCode: jetstream.ErrorCode(errCode), Description: desc}
	}
	cases := []struct {
		name string
		err  error
		want NATSClass
	}{
		{"nil", nil, NATSOther},
		{"quorum loss 503/10008", api(503, 10008, "JetStream system temporarily unavailable"), NATSTransient},
		{"no peers 10005", api(500, 10005, "no suitable peers for placement"), NATSTransient},
		{"not leader 10009", api(500, 10009, "JetStream cluster can not handle request"), NATSTransient},
		{"stream offline 10118", api(500, 10118, "stream is offline"), NATSTransient},
		{"consumer offline 10119", api(500, 10119, "consumer is offline"), NATSTransient},
		{"insufficient resources 10023", api(503, 10023, "insufficient resources"), NATSTransient},
		{"not enabled 10076", api(503, 10076, "JetStream not enabled"), NATSTransient},
		{"member change 10202", api(400, 10202, "cluster member change is in progress"), NATSTransient},
		{"bare 503", api(503, 0, "no responders"), NATSTransient},
		{"bare 408", api(408, 0, "request timeout"), NATSTransient},
		{"not enabled for account 10039", api(503, 10039, "JetStream not enabled for account"), NATSOther},
		{"stream not found", api(404, 10059, "stream not found"), NATSOther},
		{"wrong last sequence", api(400, 10071, "wrong last sequence: 3"), NATSOther},
		{"403", api(403, 0, "forbidden"), NATSDenied},
		{"-ERR authorization", errors.New("nats: Authorization Violation"), NATSDenied},
		{"queue unreachable: authorization", fmt.Errorf("connecting: %w: %w", ErrUnreachable, errors.New("nats: Authorization Violation")), NATSDenied},
		{"permissions text", errors.New(`nats: Permissions Violation for Publish to "$JS.API.STREAM.INFO.S"`), NATSDenied},
		{"authentication expired text", errors.New("nats: user authentication expired"), NATSDenied},
		{"partials publish", fmt.Errorf("publishing partials to sluice.agg.p.0: %w", jetstream.ErrNoStreamResponse), NATSTransient},
		{"context deadline", fmt.Errorf("jetstream stream sluice-agg: %w", context.DeadlineExceeded), NATSTransient},
		{"text only deadline", errors.New("jetstream stream sluice-agg: context deadline exceeded"), NATSTransient},
		{"net error", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, NATSTransient},
		{"cancelled", context.Canceled, NATSOther},
		{"bad json", errors.New("invalid character 'x'"), NATSOther},
	}
	for _, c := range cases {
		if got := ClassifyNATS(c.err); got != c.want {
			t.Errorf("%s: %v: %s, want %s", c.name, c.err, got, c.want)
		}
	}
}

// TestNATSErrMarks: transient errors become ErrUnreachable (retried),
// denied ones a user error that is not (job.Retryable refuses user
// errors), others stay as they are.
func TestNATSErrMarks(t *testing.T) {
	if err := natsErr(nats.ErrNoResponders); !errors.Is(err, ErrUnreachable) || !errors.Is(err, nats.ErrNoResponders) {
		t.Errorf("no responders: %v", err)
	}
	err := natsErr(fmt.Errorf("connecting: %w", nats.ErrAuthorization))
	if errors.Is(err, ErrUnreachable) || !errors.Is(err, ErrDenied) || !usererr.IsUser(err) {
		t.Errorf("authorization: %v, want ErrDenied, a user error, not unreachable", err)
	}
	if !strings.Contains(err.Error(), "refused access") {
		t.Errorf("authorization message %q does not say access was refused", err)
	}
	if err := natsErr(jetstream.ErrStreamNotFound); errors.Is(err, ErrUnreachable) || usererr.IsUser(err) {
		t.Errorf("stream not found: %v", err)
	}
}
