package file

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseS3Event(t *testing.T) {
	for _, c := range []struct {
		name    string
		msg     string
		keys    [][]string
		other   int
		test    bool
		bad     bool
		bucket  string
		size    int64
		etag    string
		hasTime bool
	}{
		{name: "aws encoded", msg: `{"Records":[{"eventName":"ObjectCreated:Put","eventTime":"2026-12-01T08:00:00.000Z","s3":{"bucket":{"name":"b"},"object":{"key":"in/a+b%3D1.json","size":7,"eTag":"0123"}}}]}`,
			keys: [][]string{{"in/a b=1.json", "in/a+b%3D1.json"}}, bucket: "b", size: 7, etag: "0123", hasTime: true},
		{name: "versity raw", msg: `{"Records":[{"eventName":"s3:ObjectCreated:CompleteMultipartUpload","s3":{"bucket":{"name":"b"},"object":{"key":"in/a b.json","size":3,"eTag":"\"9f\""}}}]}`,
			keys: [][]string{{"in/a b.json"}}, bucket: "b", size: 3, etag: "9f"},
		{name: "removed", msg: `{"Records":[{"eventName":"ObjectRemoved:Delete","s3":{"bucket":{"name":"b"},"object":{"key":"x"}}}]}`, other: 1},
		{name: "test event", msg: `{"Service":"Amazon S3","Event":"s3:TestEvent","Bucket":"b"}`, test: true},
		{name: "sns envelope", msg: `{"Type":"Notification","Message":"{\"Records\":[{\"eventName\":\"ObjectCreated:Copy\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"k.json\"}}}]}"}`,
			keys: [][]string{{"k.json"}}, bucket: "b"},
		{name: "not json", msg: `hello`, bad: true},
		{name: "other json", msg: `{"hello": 1}`, bad: true},
		{name: "no event name", msg: `{"Records":[{}]}`, bad: true},
		{name: "no records", msg: `{"Records":null}`, bad: true},
		{name: "null", msg: `null`, bad: true},
		{name: "array", msg: `[]`, bad: true},
		{name: "sns garbage", msg: `{"Type":"Notification","Message":"hello"}`, bad: true},
		{name: "no key", msg: `{"Records":[{"eventName":"ObjectCreated:Put","s3":{"bucket":{"name":"b"},"object":{}}}]}`, bad: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs, other, test, err := parseS3Event([]byte(c.msg))
			if c.bad {
				if !errors.Is(err, errNotAnEvent) {
					t.Fatalf("err %v, want errNotAnEvent", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if other != c.other || test != c.test || len(evs) != len(c.keys) {
				t.Fatalf("got %+v other %d test %v", evs, other, test)
			}
			for i, ev := range evs {
				if !reflect.DeepEqual(ev.Keys, c.keys[i]) || ev.Bucket != c.bucket || ev.Size != c.size || ev.ETag != c.etag || ev.Time.IsZero() == c.hasTime {
					t.Errorf("event %+v", ev)
				}
			}
		})
	}
}
