package queue

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/usererr"
)

// NATSClass is what an error of the NATS client means for a stream.
type NATSClass int

const (
	// NATSOther fails the stream as any other error does (a stream
	// that does not exist, a request the server refuses as malformed).
	NATSOther NATSClass = iota
	// NATSTransient is "not available now": a server or leader that
	// does not answer, a cluster without quorum, a connection that is
	// reconnecting. It passes by itself, so it is retried with backoff.
	NATSTransient
	// NATSDenied is an authorization or permission error: retrying
	// cannot fix a wrong password, so it fails at once.
	NATSDenied
)

func (c NATSClass) String() string {
	switch c {
	case NATSTransient:
		return "transient"
	case NATSDenied:
		return "denied"
	}
	return "other"
}

// ErrDenied wraps every error of a NATS server that refused the
// connection's credentials or permissions.
var ErrDenied = errors.New("NATS refused access (check the user, password, creds, nkey or jwt, and the user's permissions)")

// transientCodes are the JetStream API error codes that mean the
// cluster cannot answer now (nats-server's errors.json): no quorum or
// leader, offline replicas, a placement that finds no peer up yet.
var transientCodes = map[jetstream.ErrorCode]bool{
	10005: true, // no suitable peers for placement
	10007: true, // cluster not assigned to this server
	10008: true, // JetStream system temporarily unavailable
	10009: true, // cluster can not handle request (not leader)
	10023: true, // insufficient resources (a peer down)
	10075: true, // peer remap failed
	10076: true, // JetStream not enabled (a restarted server recovering)
	10118: true, // stream is offline
	10119: true, // consumer is offline
	10163: true, // expected last sequence per subject temporarily unavailable
	10194: true, // stream is offline: reason
	10195: true, // consumer is offline: reason
	10202: true, // cluster member change is in progress
}

// transientErrs are the client's own errors of a server or connection
// that is not there now.
var transientErrs = []error{
	nats.ErrTimeout, nats.ErrNoResponders, nats.ErrConnectionClosed, nats.ErrConnectionReconnecting,
	nats.ErrConnectionDraining, nats.ErrDisconnected, nats.ErrFetchDisconnected, nats.ErrNoServers,
	nats.ErrStaleConnection, nats.ErrSlowConsumer, nats.ErrReconnectBufExceeded, nats.ErrNoInfoReceived,
	nats.ErrMaxConnectionsExceeded, nats.ErrMaxAccountConnectionsExceeded, nats.ErrDrainTimeout,
	nats.ErrKeyWatcherTimeout, nats.ErrNoHeartbeat, nats.ErrNoStreamResponse, nats.ErrConsumerLeadershipChanged,
	nats.ErrAsyncPublishTimeout,
	jetstream.ErrNoStreamResponse, jetstream.ErrConsumerLeadershipChanged, jetstream.ErrNoHeartbeat,
	jetstream.ErrServerShutdown, jetstream.ErrConnectionClosed, jetstream.ErrJetStreamNotEnabled,
	jetstream.ErrAsyncPublishTimeout, jetstream.ErrJetStreamPublisherClosed, jetstream.ErrTooManyStalledMsgs,
	context.DeadlineExceeded,
}

var deniedErrs = []error{
	nats.ErrAuthorization, nats.ErrAuthExpired, nats.ErrAuthRevoked, nats.ErrAccountAuthExpired, nats.ErrPermissionViolation,
}

// transientTexts and deniedTexts catch the same errors where they
// arrive as text only: a server's -ERR, an API error's description, an
// error a wrapper flattened.
var (
	transientTexts = []string{
		"temporarily unavailable", "no responders", "no response from stream", "deadline exceeded",
		"i/o timeout", "request timeout", "timeout waiting", "timed out", "no suitable peers", "leadership change", "not leader", "no quorum", "is offline",
		"connection closed", "connection reconnecting", "connection draining", "server shutdown",
		"stale connection", "no servers available", "connection refused", "connection reset", "broken pipe",
	}
	deniedTexts = []string{
		"authorization violation", "permissions violation", "permission violation", "authentication expired",
		"authentication revoked", "authorization timeout", "user authentication",
	}
)

// ClassifyNATS says what err, from the nats.go or jetstream client,
// means: denied before transient, so an authorization violation that
// also closed the connection is not retried.
func ClassifyNATS(err error) NATSClass {
	if err == nil {
		return NATSOther
	}
	for _, d := range deniedErrs {
		if errors.Is(err, d) {
			return NATSDenied
		}
	}
	text := strings.ToLower(err.Error())
	for _, d := range deniedTexts {
		if strings.Contains(text, d) {
			return NATSDenied
		}
	}
	var api *jetstream.APIError
	if errors.As(err, &api) {
		return apiClass(api.Code, api.ErrorCode)
	}
	var legacy *nats.APIError // the client's older JetStream API
	if errors.As(err, &legacy) {
		return apiClass(legacy.Code, jetstream.ErrorCode(legacy.ErrorCode))
	}
	for _, t := range transientErrs {
		if errors.Is(err, t) {
			return NATSTransient
		}
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return NATSTransient
	}
	for _, t := range transientTexts {
		if strings.Contains(text, t) {
			return NATSTransient
		}
	}
	if strings.HasSuffix(text, "nats: timeout") {
		return NATSTransient
	}
	return NATSOther
}

// apiClass classes a JetStream API error by its HTTP-like code and its
// JetStream error code.
func apiClass(code int, errCode jetstream.ErrorCode) NATSClass {
	switch {
	case code == 401 || code == 403:
		return NATSDenied
	case transientCodes[errCode]:
		return NATSTransient
	case errCode == 0 && (code == 503 || code == 408):
		return NATSTransient
	}
	return NATSOther
}

// natsErr marks err by its class: a transient one as ErrUnreachable,
// which foreground and background streams retry with backoff; a denied
// one as ErrDenied, a user error no retry reruns. Others are as they
// were.
func natsErr(err error) error {
	switch ClassifyNATS(err) {
	case NATSTransient:
		if errors.Is(err, ErrUnreachable) {
			return err
		}
		return fmt.Errorf("%w: %w", ErrUnreachable, err)
	case NATSDenied:
		if errors.Is(err, ErrDenied) {
			return err
		}
		return usererr.Wrap(usererr.Invalid, fmt.Errorf("%w: %w", ErrDenied, err))
	}
	return err
}

// NATSError is natsErr for the other users of a JetStream connection
// (stream/partition's partials, watermarks and leases).
func NATSError(err error) error { return natsErr(err) }

// connectErr marks a failed connect: denied as natsErr does, a server
// that hangs up right after the TLS handshake as a user error, anything
// else but a certificate the client refuses (a configuration error) as
// ErrUnreachable, since a server that is not up yet fails the dial in
// many ways.
func connectErr(err error) error {
	if t := err.Error(); strings.Contains(t, "remote error: tls:") || errors.Is(err, nats.ErrTLS) && strings.Contains(t, "after TLS handshake") {
		// The server refused the TLS session: an alert (certificate
		// required, bad certificate, unknown CA), or, the client's own
		// diagnosis, a hang-up once TLS was up, which is how it refuses
		// a missing or unknown client certificate depending on timing.
		// Retrying cannot fix either.
		return usererr.Wrap(usererr.Invalid, fmt.Errorf("%w (the server refused the TLS session, likely the client certificate: check cert= and key=)", err))
	}
	switch ClassifyNATS(err) {
	case NATSDenied:
		return natsErr(err)
	case NATSOther:
		if t := strings.ToLower(err.Error()); strings.Contains(t, "x509") || strings.Contains(t, "tls:") || strings.Contains(t, "certificate") {
			return err
		}
	}
	if errors.Is(err, ErrUnreachable) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnreachable, err)
}
