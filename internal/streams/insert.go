package streams

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/connector/registry"
	"sluice/internal/job"
	"sluice/internal/safepath"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/stream"
	"sluice/internal/usererr"
)

// insertStream runs INSERT STREAM in the foreground: it returns when the
// stream ends by itself (trigger once / available_now), when ctx is
// cancelled (the running epoch finishes first, as STOP STREAM does), or
// on error.
func (m *Streams) insertStream(ctx context.Context, s *sql.InsertStream) (*Result, error) {
	name, spec, err := m.insertStreamSpec(s)
	if err != nil {
		return nil, err
	}
	if err := m.h.CheckLocations(ctx, spec.Options); err != nil {
		return nil, fmt.Errorf("INSERT STREAM %s: %w", name, err)
	}
	if m.h.Background() {
		spec.Desired = job.DesiredRunning
	}
	raw, _ := json.Marshal(spec)
	obj := &catalog.Object{Kind: "stream", Name: name, SQL: s.String(), Options: raw, Created: m.h.Now()}
	prev, _ := m.h.Catalog().Object("stream", name)
	if err := m.h.Catalog().PutObject(obj, true); err != nil {
		return nil, fmt.Errorf("INSERT STREAM %s: %w", name, err)
	}
	before := m.h.Runs().Current(name)
	r, err := m.h.Launch(ctx, name, func(ctx context.Context) (*Result, error) {
		return m.Run(ctx, name, insertWrite(s), spec)
	}, func() { _ = m.setStreamDesired(name, job.DesiredStopped) })
	var mismatch *stream.StateMismatchError
	if err != nil && (m.h.Runs().Current(name) == before || errors.As(err, &mismatch)) {
		// The stream never started (its query did not plan, or its state
		// does not match the checkpoint's): leave the catalog as it was. A stream that ran and then failed stays, so
		// that START STREAM can resume it once the cause is fixed.
		if prev != nil {
			_ = m.h.Catalog().PutObject(prev, true)
		} else {
			_ = m.h.Catalog().DropObject("stream", name, true)
		}
	}
	return r, err
}

// insertStreamSpec is the stream an INSERT STREAM defines: its name and
// its definition, options checked.
func (m *Streams) insertStreamSpec(s *sql.InsertStream) (string, Spec, error) {
	opts := map[string]string{}
	for _, o := range s.With {
		opts[strings.ToLower(o.Key)] = o.Value.Value
	}
	name := Name(s.Table, s.With)
	if err := usererr.Wrap(usererr.Invalid, safepath.CheckName(name)); err != nil {
		return "", Spec{}, fmt.Errorf("INSERT STREAM: stream %w", err)
	}
	if err := validateStreamOptions(opts); err != nil {
		return "", Spec{}, fmt.Errorf("INSERT STREAM %s: %w", name, err)
	}
	cpLoc := opts["checkpoint_location"]
	if cpLoc == "" {
		if m.h.DataDir() == "" {
			return "", Spec{}, fmt.Errorf("INSERT STREAM %s: checkpoint_location is required without a data directory", name)
		}
		p, err := safepath.Join(m.h.DataDir(), "checkpoints", name)
		if err != nil {
			return "", Spec{}, fmt.Errorf("INSERT STREAM %s: %w", name, err)
		}
		cpLoc = p
	}
	return name, Spec{Table: s.Table, Trigger: opts["trigger"], Checkpoint: storage.NormalizeLocation(cpLoc), Options: opts,
		Query: s.Query.String(), Columns: s.Columns}, nil
}

func validateStreamOptions(opts map[string]string) error {
	if err := job.Check(job.Stream, opts, "for a stream", registry.StreamOptionKeys()); err != nil {
		return err
	}
	if m := opts["output_mode"]; m != "" && m != "append" && m != "update" && m != "complete" {
		return usererr.Errorf(usererr.Invalid, "output_mode %q: want append, update or complete", m)
	}
	return nil
}
