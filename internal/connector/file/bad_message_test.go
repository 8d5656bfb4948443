package file

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"sluice/internal/storage"
)

// TestNotificationsBadMessageDeadLetter: with a dead_letter_location,
// each message that is no S3 event becomes one JSON line there (queue,
// message id, reason, raw body) and is acknowledged; the real file after
// them is read, and a redelivered bad message overwrites its own line.
func TestNotificationsBadMessageDeadLetter(t *testing.T) {
	r := newNotifyRig(t, "1s")
	dlName := strings.NewReplacer("/", "_").Replace(t.Name()) + "_dead"
	storage.DropMemStore(dlName)
	ss := r.source(map[string]string{"discovery_backfill": "false", "dead_letter_location": "mem://" + dlName + "/dl/"}, -1)
	defer ss.Close()
	bad := []string{"not json", `{"hello": "world"}`, "\xff\xfebinary"}
	for _, m := range bad {
		if err := r.nats.Publish("s3.events", []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	r.put("lake", "in/real.json")
	read := map[string]int{}
	var epoch int64
	drain(t, ss, &epoch, read, 1, 20*time.Second)
	if read["in/real.json"] != 1 {
		t.Fatalf("read %v", read)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, _ := ss.NotifyStats()
		pending, ackPending, err := r.nats.Consumer("s3events", "sluice")
		if err != nil {
			t.Fatal(err)
		}
		if st.Malformed == 3 && pending == 0 && ackPending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v, consumer pending %d, ack pending %d", st, pending, ackPending)
		}
		if o, keys := latestKeys(t, ss); o != nil {
			t.Fatalf("read again: %v", keys)
		}
		time.Sleep(100 * time.Millisecond)
	}

	dl := storage.NamedMemStore(dlName)
	var got []string
	ids := map[string]bool{}
	err := dl.List(context.Background(), "dl/", "", func(o storage.ObjectInfo) error {
		if !strings.HasPrefix(o.Key, "dl/bad-message-") || !strings.HasSuffix(o.Key, ".json") {
			t.Errorf("dead letter named %s", o.Key)
		}
		rc, err := dl.Open(context.Background(), o.Key)
		if err != nil {
			return err
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			return err
		}
		if strings.Count(string(b), "\n") != 1 || !strings.HasSuffix(string(b), "\n") {
			t.Errorf("%s is not one JSON line: %q", o.Key, b)
		}
		var line struct {
			Queue, Message, Reason, Raw string
			RawBase64                   string `json:"raw_base64"`
		}
		if err := json.Unmarshal(b, &line); err != nil {
			t.Fatalf("%s: %v", o.Key, err)
		}
		if line.Queue != r.queue || line.Message == "" || line.Reason == "" {
			t.Errorf("%s: %+v", o.Key, line)
		}
		ids[line.Message] = true
		raw := line.Raw
		if line.RawBase64 != "" {
			d, err := base64.StdEncoding.DecodeString(line.RawBase64)
			if err != nil || line.Raw != "" {
				t.Errorf("%s: raw %q, raw_base64 %q", o.Key, line.Raw, line.RawBase64)
			}
			raw = string(d)
		}
		got = append(got, raw)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	sort.Strings(bad)
	if strings.Join(got, "|") != strings.Join(bad, "|") || len(ids) != 3 {
		t.Fatalf("dead letters %q (ids %v), want %q", got, ids, bad)
	}
}
