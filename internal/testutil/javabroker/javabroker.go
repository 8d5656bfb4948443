// Package javabroker runs real message brokers that live on the JVM for
// tests: ElasticMQ (the SQS API) and an Apache Kafka broker in KRaft
// mode, from the jars scripts/javabroker.sh installs from Maven Central,
// on loopback ports over a temp directory.
//
//	b, err := javabroker.StartElasticMQ("events") // b.Endpoint: http://127.0.0.1:PORT
//	b, err := javabroker.StartKafka()             // b.Addr: 127.0.0.1:PORT
//	defer b.Stop()
//
// Errors wrap ErrUnavailable, for integration.Unavailable.
package javabroker

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"sluice/internal/testutil/integration"
)

// quickJVM starts a broker in about half the time on a small, busy
// machine (the client JIT only, the serial collector): a test's broker
// handles little traffic, and the outage tests start one twice. No perf
// data: nothing left in /tmp/hsperfdata_*.
var quickJVM = []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData"}

// ErrUnavailable wraps every reason a broker could not be started.
var ErrUnavailable = errors.New("BROKER UNAVAILABLE")

// Broker is a running broker.
type Broker struct {
	Endpoint string // ElasticMQ: http://127.0.0.1:PORT
	Addr     string // Kafka: 127.0.0.1:PORT
	// SASLAddr is Kafka's SASL_PLAINTEXT listener: mechanisms PLAIN and
	// SCRAM-SHA-256, user KafkaUser with password KafkaPassword.
	SASLAddr string
	// SSLAddr is Kafka's SSL listener (StartKafkaTLS only).
	SSLAddr  string
	dir      string
	workdir  string
	args     []string
	waitAddr string
	cmd      *exec.Cmd
	exited   chan error
	out      *bytes.Buffer
}

// StartElasticMQ runs ElasticMQ with the named queues (visibility
// timeout 2s, so tests see redelivery quickly), its messages kept in an
// H2 database in its directory so they survive Down and Up.
func StartElasticMQ(queues ...string) (*Broker, error) {
	lib, err := install("elasticmq")
	if err != nil {
		return nil, err
	}
	port, err := integration.FreePort()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "sluice-elasticmq-*")
	if err != nil {
		return nil, err
	}
	var qs strings.Builder
	for _, q := range queues {
		fmt.Fprintf(&qs, "  %s { defaultVisibilityTimeout = 2 seconds }\n", q)
	}
	conf := fmt.Sprintf(`include classpath("application.conf")
node-address { protocol = http, host = 127.0.0.1, port = %d, context-path = "" }
rest-sqs { enabled = true, bind-port = %d, bind-hostname = "127.0.0.1", sqs-limits = strict }
rest-stats { enabled = false }
messages-storage { enabled = true, uri = "jdbc:h2:%s;WRITE_DELAY=0" }
queues {
%s}
`, port, port, filepath.Join(dir, "messages"), qs.String())
	cf := filepath.Join(dir, "elasticmq.conf")
	if err := os.WriteFile(cf, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	b := &Broker{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), dir: dir}
	if err := b.run(filepath.Join(dir, "data"), append(quickJVM, "-Xmx256m", "-Dconfig.file="+cf, "-cp", lib+"/*", "org.elasticmq.server.Main")...); err != nil {
		return nil, err
	}
	if err := b.waitPort(fmt.Sprintf("127.0.0.1:%d", port), 90*time.Second); err != nil {
		return nil, err
	}
	return b, nil
}

// The one user of Kafka's SASL listener.
const (
	KafkaUser     = "sluice"
	KafkaPassword = "sluice-secret"
)

// KafkaTLS is an SSL listener's PEM files: Keystore holds the broker's
// private key (PKCS#8, unencrypted) and certificate chain, Truststore the
// CAs its clients' certificates must chain to (clients must present one).
type KafkaTLS struct {
	Keystore, Truststore string
}

// StartKafka runs a one-node Kafka (broker and controller) that creates
// topics on first use, two partitions each, with a plaintext listener
// (Addr) and a SASL one (SASLAddr).
func StartKafka() (*Broker, error) { return startKafka(nil) }

// StartKafkaTLS is StartKafka with an SSL listener too (SSLAddr) that
// requires client certificates (mutual TLS).
func StartKafkaTLS(tls KafkaTLS) (*Broker, error) { return startKafka(&tls) }

func startKafka(tls *KafkaTLS) (*Broker, error) {
	lib, err := install("kafka")
	if err != nil {
		return nil, err
	}
	bp, err := integration.FreePort()
	if err != nil {
		return nil, err
	}
	cp, err := integration.FreePort()
	if err != nil {
		return nil, err
	}
	sp, err := integration.FreePort()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "sluice-kafka-*")
	if err != nil {
		return nil, err
	}
	listeners := fmt.Sprintf("PLAINTEXT://127.0.0.1:%d,SASL_PLAINTEXT://127.0.0.1:%d", bp, sp)
	protocols := "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT"
	var sslProps, sslAddr string
	if tls != nil {
		tp, err := integration.FreePort()
		if err != nil {
			return nil, err
		}
		sslAddr = fmt.Sprintf("127.0.0.1:%d", tp)
		listeners += ",SSL://" + sslAddr
		protocols += ",SSL:SSL"
		sslProps = fmt.Sprintf(`listener.name.ssl.ssl.keystore.type=PEM
listener.name.ssl.ssl.keystore.location=%s
listener.name.ssl.ssl.truststore.type=PEM
listener.name.ssl.ssl.truststore.location=%s
listener.name.ssl.ssl.client.auth=required
`, tls.Keystore, tls.Truststore)
	}
	props := fmt.Sprintf(`process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:%[2]d
listeners=CONTROLLER://127.0.0.1:%[2]d,%[7]s
advertised.listeners=%[7]s
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=%[8]s
sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_%[5]s="%[6]s";
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
log.dirs=%[3]s
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
num.partitions=2
auto.create.topics.enable=true
`, bp, cp, filepath.Join(dir, "data"), sp, KafkaUser, KafkaPassword, listeners, protocols) + sslProps
	pf := filepath.Join(dir, "server.properties")
	if err := os.WriteFile(pf, []byte(props), 0o644); err != nil {
		return nil, err
	}
	format := exec.Command("java", append(quickJVM, "-Xmx256m", "-cp", lib+"/*", "kafka.tools.StorageTool", "format", "-t", "c2x1aWNldGVzdGNsdXN0ZQ", "-c", pf,
		"--add-scram", fmt.Sprintf("SCRAM-SHA-256=[name=%s,password=%s]", KafkaUser, KafkaPassword))...)
	if out, err := format.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: formatting kafka storage: %v: %s", ErrUnavailable, err, lastLines(out, 3))
	}
	b := &Broker{Addr: fmt.Sprintf("127.0.0.1:%d", bp), SASLAddr: fmt.Sprintf("127.0.0.1:%d", sp), SSLAddr: sslAddr, dir: dir}
	if err := b.run(dir, append(quickJVM, "-Xmx512m", "-cp", lib+"/*", "kafka.Kafka", pf)...); err != nil {
		return nil, err
	}
	if err := b.waitPort(b.Addr, 120*time.Second); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *Broker) run(workdir string, args ...string) error {
	if err := os.MkdirAll(workdir, 0o755); err != nil {
		return err
	}
	b.workdir, b.args = workdir, args
	b.out = &bytes.Buffer{}
	b.cmd = exec.Command("java", args...)
	b.cmd.Dir = workdir
	b.cmd.Stdout, b.cmd.Stderr = b.out, b.out
	// Pdeathsig: a test binary killed without its Stop takes the broker
	// with it rather than leaving it to init.
	b.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := b.cmd.Start(); err != nil {
		os.RemoveAll(b.dir)
		return fmt.Errorf("%w: starting java: %v", ErrUnavailable, err)
	}
	b.exited = make(chan error, 1)
	go func() { b.exited <- b.cmd.Wait() }()
	return nil
}

func (b *Broker) waitPort(addr string, within time.Duration) error {
	b.waitAddr = addr
	deadline := time.Now().Add(within)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case err := <-b.exited:
			b.exited <- err
			b.Stop()
			return fmt.Errorf("%w: broker exited during start (%v): %s", ErrUnavailable, err, lastLines(b.out.Bytes(), 5))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			b.Stop()
			return fmt.Errorf("%w: broker did not listen on %s within %s: %s", ErrUnavailable, addr, within, lastLines(b.out.Bytes(), 5))
		}
	}
}

// Down kills the broker (SIGKILL: an outage, not a clean shutdown),
// keeping its directory and ports for Up.
func (b *Broker) Down() {
	if b.cmd != nil && b.cmd.Process != nil {
		_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-b.exited:
		case <-time.After(5 * time.Second):
		}
	}
}

// Up starts the broker again after Down, on the same ports over the same
// data (Kafka's log and committed offsets; ElasticMQ's queued messages).
func (b *Broker) Up() error {
	dir := b.dir
	b.dir = "" // a failed start must not remove it
	err := b.run(b.workdir, b.args...)
	b.dir = dir
	if err != nil {
		return err
	}
	return b.waitPort(b.waitAddr, 120*time.Second)
}

// Stop kills the broker and removes its directory. Safe on nil.
func (b *Broker) Stop() {
	if b == nil {
		return
	}
	if b.cmd != nil && b.cmd.Process != nil {
		_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-b.exited:
		case <-time.After(5 * time.Second):
		}
	}
	os.RemoveAll(b.dir)
}

// install runs scripts/javabroker.sh NAME and returns its jar folder.
func install(name string) (string, error) {
	script, err := findScript()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if _, err := exec.LookPath("java"); err != nil {
		return "", fmt.Errorf("%w: java not found", ErrUnavailable)
	}
	var stderr bytes.Buffer
	cmd := exec.Command("bash", script, name)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%w: %s %s: %v: %s", ErrUnavailable, script, name, err, lastLines(stderr.Bytes(), 3))
	}
	return strings.TrimSpace(string(out)), nil
}

func findScript() (string, error) { return integration.Script("javabroker.sh") }

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
