package opensearch

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"sluice/internal/connector"
	"sluice/internal/storage"
)

// Options are a table's OPTIONS, parsed and checked.
type Options struct {
	Endpoints  []string
	Index      string // a name or a pattern such as logs-{@timestamp|yyyy.MM.dd}
	User       string
	Password   string // never printed
	Region     string // set: requests are signed with AWS SigV4
	Service    string // es or aoss
	CAFile     string
	Insecure   bool
	ID         []string // columns whose values make the document id; nil: content hash
	Action     string   // index, create, upsert
	Routing    string   // a column name
	Refresh    string   // "", true, false, wait_for
	TextFields map[string]bool
	// Keyword names a text field's keyword multi-field (from an inferred
	// mapping), through which equality is pushed down.
	Keyword       map[string]keywordField
	IndexSettings string // JSON
	IndexMappings string // JSON
	DeadLetter    string // a directory or s3:// prefix
	// BulkBytes (bulk_max_bytes, 5mb) is the size a _bulk request fills
	// up to: the first requests' and the most the sink grows back to
	// after 429s shrank them (to 64 KiB at least; see sizer).
	// BulkActions (bulk_max_actions, 100,000) caps a request's documents
	// whatever their size.
	BulkActions int
	BulkBytes   int
	// FlushInterval (bulk_flush_interval, 1s) sends a request that has
	// not filled.
	FlushInterval time.Duration
	// Concurrency (bulk_concurrent_requests, 2) is the most requests in
	// flight (and the first); 429s halve it down to one, clean responses
	// add one back per round.
	Concurrency int
	// RetryTime (retry_max_time, 2m) is how long a request may go without
	// a document accepted before the sink gives up; RetryBase
	// (retry_initial_backoff, 100ms) is the first wait, doubling up to
	// 5 s with jitter.
	RetryTime time.Duration
	RetryBase time.Duration
	PageSize  int
}

// OptionKeys lists every OPTIONS key an opensearch table accepts, sorted.
func OptionKeys() []string {
	keys := []string{
		"endpoint", "index", "user", "password", "auth", "region", "service",
		"ca_file", "insecure", "id", "action", "routing", "refresh", "text_fields",
		"index_settings", "index_mappings", "dead_letter_location",
		"bulk_max_actions", "bulk_max_bytes", "bulk_flush_interval", "bulk_concurrent_requests",
		"retry_max_time", "retry_initial_backoff", "page_size",
	}
	sort.Strings(keys)
	return keys
}

// expandEnv replaces ${env:VAR} references (storage.ExpandEnv, the one
// implementation every connector's options share).
func expandEnv(key, v string) (string, error) { return storage.ExpandEnv(key, v) }

// ValidateOptions checks OPTIONS keys and values without connecting.
func ValidateOptions(m map[string]string) error {
	_, err := parseOptions(m, false)
	return err
}

// ParseOptions parses a table's options; ${env:VAR} references are
// resolved.
func ParseOptions(m map[string]string) (Options, error) { return parseOptions(m, true) }

func parseOptions(m map[string]string, resolve bool) (Options, error) {
	o := Options{
		Action: "index", BulkActions: 100_000, BulkBytes: 5 << 20, FlushInterval: time.Second,
		Concurrency: 2, RetryTime: 2 * time.Minute, RetryBase: 100 * time.Millisecond, PageSize: 1000,
		TextFields: map[string]bool{},
	}
	get := func(k string) (string, error) {
		v := m[k]
		if !resolve {
			return v, nil
		}
		return expandEnv(k, v)
	}
	ep, err := get("endpoint")
	if err != nil {
		return o, err
	}
	if ep == "" {
		ep = "http://127.0.0.1:9200"
	}
	for _, e := range strings.Split(ep, ",") {
		if e = strings.TrimSpace(e); e != "" {
			if !strings.HasPrefix(e, "http://") && !strings.HasPrefix(e, "https://") {
				return o, fmt.Errorf("option endpoint: %q must start with http:// or https://", e)
			}
			o.Endpoints = append(o.Endpoints, strings.TrimRight(e, "/"))
		}
	}
	o.Index = strings.TrimSpace(m["index"])
	if o.Index == "" {
		return o, &connector.MissingOptionError{Key: "index"}
	}
	if _, err := parseIndexPattern(o.Index); err != nil {
		return o, err
	}
	if o.User, err = get("user"); err != nil {
		return o, err
	}
	if o.Password, err = get("password"); err != nil {
		return o, err
	}
	switch a := strings.ToLower(m["auth"]); a {
	case "", "none", "basic":
		if a == "basic" && o.User == "" && resolve {
			return o, fmt.Errorf("option auth 'basic' needs user and password")
		}
	case "sigv4", "aws_sigv4", "aws":
		if m["region"] == "" {
			return o, fmt.Errorf("option auth '%s' needs region", a)
		}
	default:
		return o, fmt.Errorf("option auth: %q is not one of basic, sigv4", m["auth"])
	}
	o.Region = m["region"]
	o.Service = strings.ToLower(m["service"])
	switch o.Service {
	case "":
		o.Service = "es"
	case "es", "aoss":
	default:
		return o, fmt.Errorf("option service: %q is not es or aoss", m["service"])
	}
	o.CAFile = m["ca_file"]
	if v := m["insecure"]; v != "" {
		if o.Insecure, err = strconv.ParseBool(v); err != nil {
			return o, fmt.Errorf("option insecure: %q is not true or false", v)
		}
	}
	for _, c := range strings.Split(m["id"], ",") {
		if c = strings.TrimSpace(strings.Trim(strings.TrimSpace(c), "`")); c != "" {
			o.ID = append(o.ID, c)
		}
	}
	if v := strings.ToLower(m["action"]); v != "" {
		if v != "index" && v != "create" && v != "upsert" {
			return o, fmt.Errorf("option action: %q is not index, create or upsert", m["action"])
		}
		o.Action = v
	}
	o.Routing = strings.Trim(strings.TrimSpace(m["routing"]), "`")
	switch v := strings.ToLower(m["refresh"]); v {
	case "", "false", "true", "wait_for":
		o.Refresh = v
	default:
		return o, fmt.Errorf("option refresh: %q is not true, false or wait_for", m["refresh"])
	}
	for _, c := range strings.Split(m["text_fields"], ",") {
		if c = strings.TrimSpace(strings.Trim(strings.TrimSpace(c), "`")); c != "" {
			o.TextFields[c] = true
		}
	}
	o.IndexSettings, o.IndexMappings = m["index_settings"], m["index_mappings"]
	for k, v := range map[string]string{"index_settings": o.IndexSettings, "index_mappings": o.IndexMappings} {
		if v != "" && !jsonObject(v) {
			return o, fmt.Errorf("option %s: not a JSON object", k)
		}
	}
	o.DeadLetter = m["dead_letter_location"]
	ints := []struct {
		k   string
		dst *int
	}{{"bulk_max_actions", &o.BulkActions}, {"bulk_max_bytes", &o.BulkBytes}, {"bulk_concurrent_requests", &o.Concurrency}, {"page_size", &o.PageSize}}
	for _, it := range ints {
		if v := m[it.k]; v != "" {
			n, err := parseSize(v)
			if err != nil || n <= 0 {
				return o, fmt.Errorf("option %s: %q is not a positive number", it.k, v)
			}
			*it.dst = n
		}
	}
	durs := []struct {
		k   string
		dst *time.Duration
	}{{"bulk_flush_interval", &o.FlushInterval}, {"retry_max_time", &o.RetryTime}, {"retry_initial_backoff", &o.RetryBase}}
	for _, it := range durs {
		if v := m[it.k]; v != "" {
			d, err := parseDuration(v)
			if err != nil {
				return o, fmt.Errorf("option %s: %w", it.k, err)
			}
			*it.dst = d
		}
	}
	return o, nil
}

func jsonObject(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}")
}

// parseSize reads 1000, 5mb, 64kb.
func parseSize(v string) (int, error) {
	s := strings.ToLower(strings.TrimSpace(v))
	mult := 1
	for suf, m := range map[string]int{"kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30} {
		if strings.HasSuffix(s, suf) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, suf)), m
			break
		}
	}
	n, err := strconv.Atoi(s)
	return n * mult, err
}

// parseDuration reads Go durations (1s, 250ms) and SQL-ish '10 seconds'.
func parseDuration(v string) (time.Duration, error) {
	s := strings.ToLower(strings.TrimSpace(v))
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	f := strings.Fields(s)
	if len(f) == 2 {
		n, err := strconv.ParseFloat(f[0], 64)
		if err == nil {
			unit := strings.TrimSuffix(f[1], "s")
			mult := map[string]time.Duration{"millisecond": time.Millisecond, "second": time.Second, "minute": time.Minute, "hour": time.Hour}[unit]
			if mult > 0 {
				return time.Duration(n * float64(mult)), nil
			}
		}
	}
	return 0, fmt.Errorf("%q is not a duration (e.g. 500ms, 10s, '2 minutes')", v)
}
