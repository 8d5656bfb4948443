package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"sluice/internal/testutil/natsserver"
	"sluice/internal/testutil/s3server"
)

// soRig is the scale-out benchmarks' setting: NATS with JetStream
// embedded in this process, a real Versity gateway (posix backend)
// publishing its S3 events into it, and a built `sluice` binary whose
// processes run the streams.
type soRig struct {
	dir  string
	bin  string
	nats *natsserver.Server
	// cluster, instead of nats, is a 3-node JetStream cluster with an
	// R3 events stream (newSORig's cluster).
	cluster *natsserver.Cluster
	s3      *s3server.Server
}

const soSubject = "s3.events"

func newSORig(dir, bin string) (*soRig, error) { return newSORigOn(dir, bin, false) }

// newSORigOn is newSORig over one server, or over a 3-node cluster.
func newSORigOn(dir, bin string, cluster bool) (*soRig, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	r := &soRig{dir: dir, bin: bin}
	if r.bin == "" {
		r.bin = filepath.Join(dir, "sluice")
		if out, err := exec.Command("go", "build", "-o", r.bin, "sluice/cmd/sluice").CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building sluice: %v: %s", err, out)
		}
	}
	url := ""
	if cluster {
		cl, err := natsserver.StartClusterIn(filepath.Join(dir, "nats"), 3)
		r.cluster = cl
		if err == nil {
			err = cl.AddStream("s3events", 3, soSubject)
		}
		if err != nil {
			r.close()
			return nil, err
		}
		url = cl.URL
	} else {
		ns, err := natsserver.Start("")
		if err != nil {
			return nil, err
		}
		r.nats = ns
		if err := ns.AddStream("s3events", soSubject); err != nil {
			r.close()
			return nil, err
		}
		url = ns.URL
	}
	srv, err := s3server.Start("--event-nats-url", url, "--event-nats-topic", soSubject)
	if err != nil {
		r.close()
		return nil, err
	}
	r.s3 = srv
	return r, nil
}

// natsURL is the events' servers, as a queue URL names them.
func (r *soRig) natsURL() string {
	if r.cluster != nil {
		return r.cluster.URL
	}
	return r.nats.URL
}

// events is how many messages the events stream holds.
func (r *soRig) events() (uint64, error) {
	if r.cluster != nil {
		return r.cluster.StreamMsgs("s3events")
	}
	return r.nats.StreamMsgs("s3events")
}

func (r *soRig) close() {
	if r.s3 != nil {
		r.s3.Stop()
	}
	if r.nats != nil {
		r.nats.Stop()
	}
	if r.cluster != nil {
		r.cluster.Stop()
	}
}

// session is what every sluice process runs first to reach the gateway.
func (r *soRig) session() []string {
	return []string{
		fmt.Sprintf("SET s3.endpoint = '%s'", r.s3.Endpoint),
		fmt.Sprintf("SET s3.access_key = '%s'", r.s3.AccessKey),
		fmt.Sprintf("SET s3.secret_key = '%s'", r.s3.SecretKey),
		fmt.Sprintf("SET s3.region = '%s'", r.s3.Region),
		"SET s3.path_style = 'true'",
	}
}

func (r *soRig) put(ctx context.Context, bucket, key string, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	_, err := r.s3.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(body)})
	return err
}

// queue is a fresh durable consumer's URL (it starts at the stream's
// beginning, so it sees every event the gateway published).
func (r *soRig) queue(consumer string) string {
	return fmt.Sprintf("%s/s3events/%s?ack_wait=10s", r.natsURL(), consumer)
}

// proc is one `sluice sql` process.
type proc struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	done   chan error
}

// sluice starts `sluice sql -e` over statements, in a data dir of its own.
func (r *soRig) sluice(dataDir string, stmts ...string) (*proc, error) {
	p := &proc{cmd: exec.Command(r.bin, "sql", "--data-dir", dataDir, "-e", strings.Join(stmts, ";\n")+";"),
		stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.done <- p.cmd.Wait() }()
	return p, nil
}

// cpu is the process's user plus system CPU seconds, once it exited.
func (p *proc) cpu() float64 {
	if p.cmd.ProcessState == nil {
		return 0
	}
	return (p.cmd.ProcessState.UserTime() + p.cmd.ProcessState.SystemTime()).Seconds()
}

func (p *proc) kill() {
	if p.cmd.ProcessState == nil {
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// loadavg is /proc/loadavg's first three fields.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// ndjson is n rows of the benchmarks' small schema, ids from first.
func ndjson(first, n int) []byte {
	var b bytes.Buffer
	for j := 0; j < n; j++ {
		id := first + j
		fmt.Fprintf(&b, "{\"id\": %d, \"status\": %d, \"msg\": \"m%d\"}\n", id, 200+id%5*100, id%7)
	}
	return b.Bytes()
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// childCPU is the CPU seconds so far of this process's children named
// comm (the Versity gateway), from /proc (clock ticks of 1/100 s).
func childCPU(comm string) float64 {
	ents, _ := os.ReadDir("/proc")
	me := strconv.Itoa(os.Getpid())
	total := 0.0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open || s[open+1:close] != comm {
			continue
		}
		f := strings.Fields(s[close+2:])
		if len(f) < 13 || f[1] != me {
			continue
		}
		ut, _ := strconv.ParseFloat(f[11], 64)
		st, _ := strconv.ParseFloat(f[12], 64)
		total += (ut + st) / 100
	}
	return total
}

// listCount lists every key under prefix, as a listing stream does.
func (r *soRig) listCount(ctx context.Context, bucket, prefix string) (int, error) {
	p := s3.NewListObjectsV2Paginator(r.s3.Client(), &s3.ListObjectsV2Input{Bucket: aws.String(bucket), Prefix: aws.String(prefix)})
	n := 0
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return n, err
		}
		n += len(page.Contents)
	}
	return n, nil
}
