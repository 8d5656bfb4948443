package queue

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// kafkaHealth hears a Kafka client's broker connections and responses,
// so Check knows, without a round trip, that no broker answers. The
// client itself retries quietly forever: a fetch from a dead broker
// backs off and polls come back empty, as from a topic with nothing new.
// The latest event decides: a failed dial or read since the last
// response means unreachable, the next response (a heartbeat, a fetch,
// a reconnect) means reachable again. With several brokers one dying
// may read as unreachable until another answers (heartbeats: seconds);
// the epoch then fails and is retried, which is safe.
type kafkaHealth struct {
	mu     sync.Mutex
	failed error
	broker string
}

var (
	_ kgo.HookBrokerConnect = (*kafkaHealth)(nil)
	_ kgo.HookBrokerRead    = (*kafkaHealth)(nil)
)

func (h *kafkaHealth) OnBrokerConnect(meta kgo.BrokerMetadata, _ time.Duration, _ net.Conn, err error) {
	h.note(meta, err)
}

func (h *kafkaHealth) OnBrokerRead(meta kgo.BrokerMetadata, _ int16, _ int, _, _ time.Duration, err error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, kgo.ErrClientClosed) {
		return // the caller gave the request up, or the client closed: nothing about the broker
	}
	h.note(meta, err)
}

func (h *kafkaHealth) note(meta kgo.BrokerMetadata, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failed = err
	h.broker = net.JoinHostPort(meta.Host, strconv.Itoa(int(meta.Port)))
}

// state is the latest failure, nil when the latest event was a response.
func (h *kafkaHealth) state() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.broker, h.failed
}

// Check fails while no broker answers (see kafkaHealth).
func (k *Kafka) Check() error {
	if broker, err := k.health.state(); err != nil {
		return fmt.Errorf("kafka topic %s: %w: no broker answers (%s: %v)", k.topic, ErrUnreachable, broker, err)
	}
	return nil
}
