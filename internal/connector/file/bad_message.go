package file

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"

	"sluice/internal/queue"
)

// badMessage disposes of a queue message that is no S3 event
// notification (parseS3Event's error: not JSON, JSON of another shape, a
// record without eventName, or a created one without bucket or key).
// Such a message would fail the same way on every redelivery, so the
// caller acknowledges it once this returns nil, and counts it as
// malformed (queue_malformed in DESCRIBE STREAM).
//
// With a dead_letter_location it is kept there first, as one JSON line in
// an object of its own:
//
//	{"queue": "<queue URL, password redacted>", "message": "<broker's id>",
//	 "reason": "<why it is no event>", "raw": "<the body as sent>"}
//
// ("raw_base64" instead of "raw" when the body is not UTF-8, so no byte
// is lost). The body is the user's own data and is kept whole. The
// object, bad-message-<hash of queue, id and body>.json, is the same for
// a redelivery of the message, which overwrites it. A location that
// cannot be written is an error: the epoch fails and is retried, and the
// message, not acknowledged, comes back (bad rows do the same).
//
// Without one, a warning names the queue and the message, once per
// delivery (the message is acknowledged right after it).
func (s *StreamSource) badMessage(ctx context.Context, m queue.Message, why error) error {
	q := queue.Redact(s.sopts.Queue)
	if s.dead == nil {
		s.warnf("warning: table %s: queue %s: message %s is no S3 event notification (%v); acknowledged and dropped, set dead_letter_location to keep such messages",
			s.spec.Name, q, m.ID(), why)
		return nil
	}
	line := map[string]any{"queue": q, "message": m.ID(), "reason": why.Error()}
	if data := m.Data(); utf8.Valid(data) {
		line["raw"] = string(data)
	} else {
		line["raw_base64"] = base64.StdEncoding.EncodeToString(data)
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(line); err != nil {
		return err
	}
	h := xxhash.New()
	for _, part := range [][]byte{[]byte(q), {0}, []byte(m.ID()), {0}, m.Data()} {
		_, _ = h.Write(part)
	}
	key := s.dead.prefix + "bad-message-" + strconv.FormatUint(h.Sum64(), 16) + ".json"
	if err := s.dead.store.Put(ctx, key, &buf, false); err != nil {
		return fmt.Errorf("table %s: dead-lettering message %s of queue %s: %w", s.spec.Name, m.ID(), q, err)
	}
	return nil
}
