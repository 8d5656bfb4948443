package file

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// objectEvent is one ObjectCreated record of an S3 event notification.
type objectEvent struct {
	Bucket string
	// Keys are the candidate object keys, most likely first: AWS
	// URL-encodes the key in events (spaces as '+'), Versity sends it as
	// is, and the event does not say which; the caller keeps the first
	// that exists.
	Keys []string
	Size int64
	ETag string
	Time time.Time
}

// s3Notification is the part of an S3 event (or of the SNS envelope
// around it, when S3 publishes to SNS and SNS to SQS) that matters.
type s3Notification struct {
	Records []struct {
		EventName string `json:"eventName"`
		EventTime string `json:"eventTime"`
		S3        struct {
			Bucket struct {
				Name string `json:"name"`
			} `json:"bucket"`
			Object struct {
				Key  string  `json:"key"`
				Size int64   `json:"size"`
				ETag *string `json:"eTag"`
			} `json:"object"`
		} `json:"s3"`
	} `json:"Records"`
	// The test event S3 sends when notifications are configured
	// ({"Service":"Amazon S3","Event":"s3:TestEvent",...}).
	Event string `json:"Event"`
	// SNS envelope.
	Type    string `json:"Type"`
	Message string `json:"Message"`
}

// errNotAnEvent: the message is JSON of no S3 event shape.
var errNotAnEvent = errors.New("not an S3 event notification")

// parseS3Event reads one message. test reports s3:TestEvent; other
// (removed, tagging...) records are skipped (other counts them). An error
// (errNotAnEvent) means the message is malformed: not JSON, no Records, a
// record without eventName, or a created record without bucket or key.
func parseS3Event(data []byte) (created []objectEvent, other int, test bool, err error) {
	var n s3Notification
	if err := json.Unmarshal(data, &n); err != nil {
		return nil, 0, false, fmt.Errorf("%w: %v", errNotAnEvent, err)
	}
	if n.Type == "Notification" && n.Message != "" && n.Records == nil {
		return parseS3Event([]byte(n.Message))
	}
	if strings.HasSuffix(n.Event, "TestEvent") {
		return nil, 0, true, nil
	}
	if n.Records == nil {
		return nil, 0, false, errNotAnEvent
	}
	for i, r := range n.Records {
		if r.EventName == "" {
			return nil, 0, false, fmt.Errorf("%w: record %d has no eventName", errNotAnEvent, i)
		}
		name := strings.TrimPrefix(r.EventName, "s3:")
		if !strings.HasPrefix(name, "ObjectCreated:") {
			other++
			continue
		}
		if r.S3.Bucket.Name == "" || r.S3.Object.Key == "" {
			return nil, 0, false, fmt.Errorf("%w: record %d has no bucket or key", errNotAnEvent, i)
		}
		ev := objectEvent{Bucket: r.S3.Bucket.Name, Keys: eventKeys(r.S3.Object.Key), Size: r.S3.Object.Size}
		if r.S3.Object.ETag != nil {
			ev.ETag = strings.Trim(*r.S3.Object.ETag, `"`)
		}
		if t, err := time.Parse(time.RFC3339Nano, r.EventTime); err == nil {
			ev.Time = t
		}
		created = append(created, ev)
	}
	return created, other, false, nil
}

// eventKeys: the decoded key first (AWS's form), then the raw one.
func eventKeys(raw string) []string {
	if !strings.ContainsAny(raw, "%+") {
		return []string{raw}
	}
	dec, err := url.QueryUnescape(raw)
	if err != nil || dec == raw {
		return []string{raw}
	}
	return []string{dec, raw}
}
