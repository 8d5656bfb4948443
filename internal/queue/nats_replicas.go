package queue

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"

	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/connector"
	"sluice/internal/usererr"
)

// replicasParam reads ?replicas=N (1 to 5, JetStream's limit); 0 when
// absent, meaning the discovery stream's count.
func replicasParam(q url.Values) (int, error) {
	v := q.Get("replicas")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 5 {
		return 0, usererr.Wrap(usererr.Invalid, fmt.Errorf("%w: replicas=%q: want 1 to 5", ErrBadURL, v))
	}
	return n, nil
}

// Replicas is how many replicas the JetStream objects Sluice creates get
// (partials and watermark streams, lease and stop buckets): the URL's
// ?replicas=, else the discovery stream's, so an R3 events stream gives
// R3 state that survives the node holding it.
func (q *NATS) Replicas() int { return q.replicas }

// EnsureStream looks a stream Sluice owns up and creates it with cfg
// only when missing. An existing stream is never updated (an update
// would scale an R3 stream someone set up back to cfg's count, or
// change limits under a running stream); a replica count other than
// cfg's is warned about (connector.Warn), naming the stream and both
// counts.
func EnsureStream(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	st, err := js.Stream(ctx, cfg.Name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		st, err = js.CreateStream(ctx, cfg)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			st, err = js.Stream(ctx, cfg.Name) // another worker created it first
		}
	}
	if err != nil {
		return nil, fmt.Errorf("jetstream stream %s: %w", cfg.Name, err)
	}
	if info := st.CachedInfo(); info != nil {
		warnReplicas(ctx, "stream "+cfg.Name, cfg.Name, info.Config.Replicas, cfg.Replicas)
	}
	return st, nil
}

// EnsureKeyValue is EnsureStream for a key-value bucket.
func EnsureKeyValue(ctx context.Context, js jetstream.JetStream, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, cfg)
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = js.KeyValue(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("jetstream key-value bucket %s: %w", cfg.Bucket, err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("jetstream key-value bucket %s: %w", cfg.Bucket, err)
	}
	if bs, ok := st.(*jetstream.KeyValueBucketStatus); ok && bs.StreamInfo() != nil {
		warnReplicas(ctx, "key-value bucket "+cfg.Bucket, bs.StreamInfo().Config.Name, bs.StreamInfo().Config.Replicas, cfg.Replicas)
	}
	return kv, nil
}

// warnReplicas warns of an existing object whose replica count is not
// the one asked for (0: no wish); stream is the JetStream stream behind
// it, which `nats stream edit` scales.
func warnReplicas(ctx context.Context, what, stream string, have, want int) {
	if have == 0 {
		have = 1
	}
	if want == 0 || have == want {
		return
	}
	connector.Warn(ctx, fmt.Sprintf("jetstream %s has %d replica(s), not the %d wanted: Sluice never reconfigures an existing one (scale it with `nats stream edit %s --replicas %d`)",
		what, have, want, stream, want))
}
