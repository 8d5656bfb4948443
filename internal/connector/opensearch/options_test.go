package opensearch

import (
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

func TestParseOptions(t *testing.T) {
	t.Setenv("OS_PASS", "s3cret")
	tests := []struct {
		name    string
		opts    map[string]string
		check   func(t *testing.T, o Options)
		wantErr string
	}{
		{"defaults", map[string]string{"index": "logs"}, func(t *testing.T, o Options) {
			if o.Action != "index" || o.BulkActions != 100_000 || o.BulkBytes != 5<<20 || o.Concurrency != 2 || o.Endpoints[0] != "http://127.0.0.1:9200" {
				t.Errorf("%+v", o)
			}
		}, ""},
		{"env password", map[string]string{"index": "x", "auth": "basic", "user": "u", "password": "${env:OS_PASS}"}, func(t *testing.T, o Options) {
			if o.Password != "s3cret" {
				t.Errorf("password not resolved")
			}
		}, ""},
		{"several endpoints", map[string]string{"index": "x", "endpoint": "http://a:9200, https://b:9200/"}, func(t *testing.T, o Options) {
			if strings.Join(o.Endpoints, " ") != "http://a:9200 https://b:9200" {
				t.Errorf("%v", o.Endpoints)
			}
		}, ""},
		{"limits", map[string]string{"index": "x", "bulk_max_bytes": "2mb", "bulk_flush_interval": "2 seconds", "retry_max_time": "90s"}, func(t *testing.T, o Options) {
			if o.BulkBytes != 2<<20 || o.FlushInterval != 2*time.Second || o.RetryTime != 90*time.Second {
				t.Errorf("%+v", o)
			}
		}, ""},
		{"missing env", map[string]string{"index": "x", "password": "${env:NOPE_NOT_SET}"}, nil, "NOPE_NOT_SET is not set"},
		{"no index", map[string]string{}, nil, "index is required"},
		{"bad action", map[string]string{"index": "x", "action": "delete"}, nil, "not index, create or upsert"},
		{"bad endpoint", map[string]string{"index": "x", "endpoint": "ftp://x"}, nil, "must start with http"},
		{"sigv4 without region", map[string]string{"index": "x", "auth": "sigv4"}, nil, "needs region"},
		{"bad service", map[string]string{"index": "x", "region": "eu-west-1", "service": "s3"}, nil, "not es or aoss"},
		{"bad mappings", map[string]string{"index": "x", "index_mappings": "[1]"}, nil, "not a JSON object"},
		{"unclosed pattern", map[string]string{"index": "logs-{ts"}, nil, "unclosed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := ParseOptions(tc.opts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "s3cret") {
					t.Fatal("a secret in an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, o)
		})
	}
}

func TestIndexPattern(t *testing.T) {
	tests := []struct{ pattern, layoutOf, want string }{
		{"logs", "", "logs"},
		{"logs-{@timestamp|yyyy.MM.dd}", "@timestamp", "logs-2026.11.30"},
		{"m-{ts|yyyy-MM-dd'T'HH}", "ts", "m-2026-11-30T13"},
	}
	for _, tc := range tests {
		p, err := parseIndexPattern(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if tc.layoutOf == "" {
			if !p.static() || p.parts[0].literal != tc.want {
				t.Errorf("%s: %+v", tc.pattern, p)
			}
			continue
		}
		ts := time.Date(2026, 11, 30, 13, 4, 5, 0, time.UTC)
		if got := p.parts[0].literal + ts.Format(p.parts[1].layout); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.pattern, got, tc.want)
		}
	}
}

func TestMappingsFromSchema(t *testing.T) {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: types.Timestamp}, {Name: "d", Type: types.Date}, {Name: "s", Type: types.String},
		{Name: "txt", Type: types.String}, {Name: "i", Type: types.Int}, {Name: "b", Type: types.BigInt},
		{Name: "f", Type: types.Double}, {Name: "ok", Type: types.Boolean},
		{Name: "tags", Type: types.Array(types.Int)},
		{Name: "geo", Type: types.Struct(arrow.Field{Name: "city", Type: types.String})},
	}, nil)
	got := string(MappingsJSON(s, map[string]bool{"txt": true}))
	for _, want := range []string{
		`"ts":{"format":"strict_date_optional_time||epoch_millis","type":"date"}`,
		`"s":{"type":"keyword"}`, `"i":{"type":"integer"}`, `"b":{"type":"long"}`, `"f":{"type":"double"}`,
		`"ok":{"type":"boolean"}`, `"tags":{"type":"integer"}`,
		`"geo":{"properties":{"city":{"type":"keyword"}},"type":"object"}`,
		`"txt":{"analyzer":"sluice_standard","fields":{"keyword":{"ignore_above":8191,"type":"keyword"}},"type":"text"}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("mappings %s\nlack %s", got, want)
		}
	}
}
