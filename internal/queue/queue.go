// Package queue receives messages that must be acknowledged: the
// notifications a file stream discovers new objects by (S3 event JSON on
// NATS JetStream, SQS or Kafka), and, for several workers on one stream,
// the files they share.
//
// Each broker implements Queue; Open picks one by the URL's scheme:
//
//	nats://host:4222/<jetstream-stream>/<durable-consumer>[?ack_wait=30s]
//	nats://h1:4222,nats://h2:4222/<stream>/<consumer>?creds=FILE (NATSTarget: servers, credentials, TLS)
//	sqs://host:port/<account>/<queue>[?region=us-east-1&scheme=http]
//	kafka://host:9092/<topic>/<group>
//
// The contract is at-least-once: a message is delivered until it is
// acknowledged, possibly more than once and in any order, so whatever a
// message causes must be idempotent (a file stream's seen-file log makes a
// second event for a file harmless).
//
// # Optional abilities
//
// A Queue may also be an Extender (NATS, SQS), a Backlogger (NATS, SQS,
// Kafka), a Stopper (NATS: STOP STREAM to every worker) and a Checker:
// every broker is one (NATS's connection state, Kafka's broker hooks in
// kafka_health.go, SQS's latest request in sqs_health.go), so an
// unreachable one fails the epoch with ErrUnreachable
// (connector.ErrUnreachable), which a background stream retries and a
// foreground one too (internal/job's foreground.go).
package queue

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"sluice/internal/connector"
	"sluice/internal/sql"
	"sluice/internal/storage"
)

// Message is one delivery. Data is the broker's payload as sent.
type Message interface {
	// ID names the message for logs and dead letters: stable across
	// redeliveries where the broker has such a name (a JetStream stream
	// sequence, a Kafka partition/offset, an SQS message id).
	ID() string
	Data() []byte
}

// Queue is a subscription whose messages stay owned by the caller until
// acknowledged.
//
//	Receive(ctx, max, wait)  up to max messages; waits at most wait for
//	                         the first (0: only what is there now). None
//	                         is not an error. Messages not acknowledged
//	                         within the broker's deadline (JetStream's
//	                         ack wait, SQS's visibility timeout) are
//	                         delivered again, to this or another receiver.
//	Ack(ctx, msgs)           done: never delivered again. Call it only once
//	                         what the message caused is durable; a crash
//	                         before it redelivers the message.
//	Nak(ctx, msgs)           give them back for redelivery now.
//	Close()                  stop; unacknowledged messages are redelivered
//	                         after their deadline.
//
// Ack and Nak of a message whose deadline passed may fail or be ignored
// by the broker; the message is then delivered again, which the
// at-least-once contract allows.
type Queue interface {
	Receive(ctx context.Context, max int, wait time.Duration) ([]Message, error)
	Ack(ctx context.Context, msgs []Message) error
	Nak(ctx context.Context, msgs []Message) error
	Close() error
}

// Extender is a queue whose deadline can be pushed back for messages
// still being worked on (JetStream's in-progress ack, SQS's visibility):
// Extend restarts it; Deadline is how long a delivered message stays
// the receiver's without one.
type Extender interface {
	Extend(ctx context.Context, msgs []Message) error
	Deadline() time.Duration
}

// Backlog is what a queue holds beyond the caller's hands.
type Backlog struct {
	// Pending: not yet delivered to anyone.
	Pending int64
	// Unacked: delivered (to any receiver of the group) and not yet
	// acknowledged; they come back after their deadline if never acked.
	Unacked int64
}

// Backlogger is a queue that can tell its backlog (DESCRIBE STREAM, and
// trigger 'available_now' knowing when it has drained the queue).
type Backlogger interface {
	Backlog(ctx context.Context) (Backlog, error)
}

// Checker is a queue that knows whether it can reach its broker now
// without a round trip (a NATS connection that is reconnecting): Check
// says why not. A receiver checks before working on messages it holds,
// which it could neither extend nor acknowledge.
type Checker interface {
	Check() error
}

// ErrUnreachable wraps every error of a queue that cannot reach its
// broker. It is connector.ErrUnreachable, which the engine retries on
// without importing a transport.
var ErrUnreachable = connector.ErrUnreachable

// ErrBadURL wraps every malformed queue URL.
var ErrBadURL = errors.New("bad queue URL")

// Open connects to the queue the URL names. ${env:VAR} references in it
// are expanded first (storage.ExpandEnv), so a token or password can live
// in the environment. The error never includes a credential.
func Open(ctx context.Context, raw string) (Queue, error) {
	raw, err := storage.ExpandEnv("queue", raw)
	if err != nil {
		return nil, err
	}
	if s := strings.ToLower(raw); strings.HasPrefix(s, "nats://") || strings.HasPrefix(s, "tls://") {
		// Not url.Parse: nats://h1:4222,nats://h2:4222/... is no URL.
		return OpenNATS(ctx, raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadURL, Redact(raw))
	}
	switch strings.ToLower(u.Scheme) {
	case "sqs":
		return OpenSQS(ctx, u)
	case "kafka":
		return OpenKafka(ctx, u)
	}
	return nil, fmt.Errorf("%w: %s: want nats://, sqs:// or kafka://", ErrBadURL, Redact(raw))
}

// Redact is the URL with its credentials replaced, for messages: a
// password, a NATS token (nats://TOKEN@host, user info without a
// password) and any query parameter whose name marks a secret
// (sql.IsSecretKey: token=, password=, ...). ${env:VAR} references are
// kept, since they name a variable, not its value.
func Redact(raw string) string {
	// ${env:...} does not parse as user info; stand-ins keep it through.
	var refs []string
	raw = envRef.ReplaceAllStringFunc(raw, func(m string) string {
		refs = append(refs, m)
		return fmt.Sprintf("sluiceenvref%dx", len(refs)-1)
	})
	out := redactServers(raw)
	for i, r := range refs {
		out = strings.ReplaceAll(out, fmt.Sprintf("sluiceenvref%dx", i), r)
	}
	return out
}

// redactServers is Redact of a URL without ${env:...}: a NATS list of
// servers (nats://u:pw@h1,nats://h2/...: no URL to url.Parse) one
// server at a time, anything else whole.
func redactServers(raw string) string {
	i := strings.Index(raw, "://")
	if s := strings.ToLower(raw[:max(i, 0)]); i > 0 && (s == "nats" || s == "tls") {
		if items, tail := splitNATSServers(s, raw[i+3:]); len(items) > 1 {
			out := make([]string, len(items))
			for k, it := range items {
				out[k] = redactURL(it.scheme + "://" + it.host)
				if !it.explicit {
					out[k] = strings.TrimPrefix(out[k], it.scheme+"://")
				}
			}
			return strings.Join(out, ",") + strings.TrimPrefix(redactURL(s+"://h"+tail), s+"://h")
		}
	}
	return redactURL(raw)
}

// redactURL is Redact of one URL.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	if u.User != nil && !isEnvRef(u.User.Username()) {
		if pw, ok := u.User.Password(); ok && !isEnvRef(pw) {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		} else if s := strings.ToLower(u.Scheme); !ok && (s == "nats" || s == "tls") {
			u.User = url.User("xxxxx") // a lone user name is a token to NATS
		}
	}
	if q := u.Query(); len(q) > 0 {
		changed := false
		for k, vs := range q {
			if !sql.IsSecretKey(k) {
				continue
			}
			for i, v := range vs {
				if !isEnvRef(v) {
					vs[i], changed = "xxxxx", true
				}
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

var envRef = regexp.MustCompile(`\$\{env:[A-Za-z_][A-Za-z0-9_]*\}`)

// isEnvRef reports whether a redacted part is only a Redact stand-in.
func isEnvRef(s string) bool { return envStandIn.MatchString(s) }

var envStandIn = regexp.MustCompile(`^sluiceenvref[0-9]+x$`)

// pathParts splits a URL's path into n non-empty segments.
func pathParts(u *url.URL, n int, what string) ([]string, error) {
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) != n {
		return nil, fmt.Errorf("%w: %s: want %s", ErrBadURL, Redact(u.String()), what)
	}
	for _, p := range parts {
		if p == "" {
			return nil, fmt.Errorf("%w: %s: want %s", ErrBadURL, Redact(u.String()), what)
		}
	}
	return parts, nil
}

// durationParam reads ?name=30s, default def.
func durationParam(u *url.URL, name string, def time.Duration) (time.Duration, error) {
	v := u.Query().Get(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%w: %s=%q: want a duration such as 30s", ErrBadURL, name, v)
	}
	return d, nil
}
