// Package natsserver runs a real NATS server with JetStream inside the
// test process, on a random loopback port, storing into a temp directory.
//
//	srv := natsserver.StartTB(t)
//	srv.AddStream(t, "events", "s3.events")
//	// queue URL: srv.URL + "/events/sluice"
package natsserver

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Server is an embedded NATS server.
type Server struct {
	URL string // nats://127.0.0.1:PORT
	// Client is how the helpers (AddStream, Publish, ...) connect: the
	// credentials of a server StartWith gave users or TLS.
	Client []nats.Option
	srv    *server.Server
	dir    string
	opts   *server.Options
}

// Start runs a server with JetStream enabled; Stop ends it. dir holds
// its store ("" for a fresh temp directory, removed by Stop).
func Start(dir string) (*Server, error) { return StartWith(dir, nil) }

// StartWith is Start with configure applied to the server's options
// first (users, TLS, cluster routes).
func StartWith(dir string, configure func(*server.Options)) (*Server, error) {
	own := dir == ""
	if own {
		d, err := os.MkdirTemp("", "sluice-nats-*")
		if err != nil {
			return nil, err
		}
		dir = d
	}
	opts := &server.Options{
		Host:      "127.0.0.1",
		Port:      server.RANDOM_PORT,
		JetStream: true,
		StoreDir:  dir,
		NoLog:     true,
		NoSigs:    true,
	}
	if configure != nil {
		configure(opts)
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("nats server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("nats server did not start within 10s")
	}
	s := &Server{URL: srv.ClientURL(), srv: srv, opts: opts}
	if own {
		s.dir = dir
	}
	return s, nil
}

// StartTB starts a server for one test and stops it on cleanup.
func StartTB(tb testing.TB) *Server {
	tb.Helper()
	s, err := Start(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Stop)
	return s
}

// Stop shuts the server down. Safe on nil.
func (s *Server) Stop() {
	if s == nil {
		return
	}
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

// AddStream creates a JetStream stream capturing subjects (file storage).
func (s *Server) AddStream(name string, subjects ...string) error {
	return WithJetStream(s.URL, s.Client, func(js jetstream.JetStream) error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: subjects, Storage: jetstream.FileStorage})
		return err
	})
}

// WithJetStream connects to url with opts, runs fn over the connection's
// JetStream and closes the connection.
func WithJetStream(url string, opts []nats.Option, fn func(jetstream.JetStream) error) error {
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	return fn(js)
}

// Publish sends one core NATS message (as the S3 server does).
func (s *Server) Publish(subject string, data []byte) error {
	nc, err := s.connect()
	if err != nil {
		return err
	}
	defer nc.Close()
	if err := nc.Publish(subject, data); err != nil {
		return err
	}
	return nc.Flush()
}

// Consumer reports a durable consumer's pending and ack-pending counts.
func (s *Server) Consumer(stream, durable string) (pending, ackPending int, err error) {
	nc, err := s.connect()
	if err != nil {
		return 0, 0, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return 0, 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := js.Consumer(ctx, stream, durable)
	if err != nil {
		return 0, 0, err
	}
	info, err := c.Info(ctx)
	if err != nil {
		return 0, 0, err
	}
	return int(info.NumPending), info.NumAckPending, nil
}

// StreamMsgs is how many messages a stream holds.
func (s *Server) StreamMsgs(name string) (uint64, error) {
	nc, err := s.connect()
	if err != nil {
		return 0, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := js.Stream(ctx, name)
	if err != nil {
		return 0, err
	}
	info, err := st.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.Msgs, nil
}

// Down shuts the server down, keeping its store and port for Up (a
// broker outage: clients see their connection drop and reconnect).
func (s *Server) Down() {
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
}

// Up starts the server again after Down, on the same port over the same
// store (streams and consumers survive).
func (s *Server) Up() error { return s.up(true) }

// UpWithoutJetStream is Up with JetStream off: clients reconnect, but
// their JetStream requests find no responder, as in the moments a
// restarted server spends recovering its streams.
func (s *Server) UpWithoutJetStream() error { return s.up(false) }

func (s *Server) up(jetStream bool) error {
	opts := *s.opts
	opts.JetStream = jetStream
	u, err := url.Parse(s.URL)
	if err != nil {
		return err
	}
	if opts.Port, err = strconv.Atoi(u.Port()); err != nil {
		return fmt.Errorf("nats server port of %s: %w", s.URL, err)
	}
	srv, err := server.NewServer(&opts)
	if err != nil {
		return fmt.Errorf("nats server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return fmt.Errorf("nats server did not start again within 10s")
	}
	s.srv = srv
	return nil
}

func (s *Server) connect() (*nats.Conn, error) { return nats.Connect(s.URL, s.Client...) }
