package storage

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Options configures S3 access. The zero value means: the SDK's default
// region and credential chain (env, shared config, web identity,
// container and instance roles), AWS endpoints, virtual-host addressing.
// Local and memory stores ignore it.
type Options struct {
	Region string
	// Endpoint overrides the S3 endpoint, e.g. "http://127.0.0.1:9000"
	// for MinIO or Versity.
	Endpoint string
	// PathStyle forces path-style addressing (bucket in the path). Nil
	// means: on when Endpoint is set, since S3-compatible stores rarely
	// have wildcard DNS; off for AWS.
	PathStyle *bool
	// Static credentials; when AccessKeyID is empty the default chain is
	// used. Never printed.
	AccessKeyID     string
	SecretAccessKey string
	SessionToken    string
	// Profile selects a shared-config profile for the default chain.
	Profile string
	// Anonymous sends unsigned requests (public buckets).
	Anonymous bool
	// MaxRetries caps attempts after the first (0: the default, 5).
	MaxRetries int
	// RetryMaxBackoff caps the exponential backoff between attempts
	// (0: the default, 20s).
	RetryMaxBackoff time.Duration
	// MaxInflight caps concurrent requests per store (0: default, 64).
	MaxInflight int
	// PartSize is the multipart upload part size; bodies above it are
	// uploaded in parts (0: default, 16 MiB; S3's minimum is 5 MiB).
	PartSize int64
}

// optionKeys are the OPTIONS (...) keys OptionsFromMap reads; each is
// also accepted with an "s3." prefix.
var optionKeys = []string{
	"region", "endpoint", "path_style",
	"access_key", "secret_key", "session_token",
	"profile", "anonymous",
	"max_retries", "retry_max_backoff", "max_inflight", "part_size",
}

// OptionKeys returns the option keys OptionsFromMap understands, sorted.
// Each is also accepted as "s3."+key; IsOptionKey checks both forms.
func OptionKeys() []string {
	out := append([]string(nil), optionKeys...)
	sort.Strings(out)
	return out
}

// IsOptionKey reports whether key (lower-case) is a storage option, with
// or without the "s3." prefix.
func IsOptionKey(key string) bool {
	key = strings.TrimPrefix(key, "s3.")
	for _, k := range optionKeys {
		if k == key {
			return true
		}
	}
	return false
}

// OptionsFromMap reads storage options from table OPTIONS. Keys are
// matched case-insensitively, with or without an "s3." prefix; keys it
// does not know are ignored (they belong to the format or connector).
// Bad values are errors naming the key but never echoing a secret.
//
//	o, err := storage.OptionsFromMap(map[string]string{
//		"endpoint": "http://127.0.0.1:7070", "s3.region": "us-east-1",
//	})
func OptionsFromMap(m map[string]string) (Options, error) {
	var o Options
	// Sorted so that when both "k" and "s3.k" are given, the result and
	// any error do not depend on map order: the s3.-prefixed one wins.
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, raw := range keys {
		k := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(raw)), "s3.")
		if !IsOptionKey(k) && k != "access_key_id" && k != "secret_access_key" {
			continue // not ours: its ${env:...} is its owner's business
		}
		v, err := ExpandEnv(raw, strings.TrimSpace(m[raw]))
		if err != nil {
			return Options{}, err
		}
		switch k {
		case "region":
			o.Region = v
		case "endpoint":
			o.Endpoint = v
		case "path_style":
			var b bool
			if b, err = strconv.ParseBool(v); err == nil {
				o.PathStyle = &b
			}
		case "access_key", "access_key_id":
			o.AccessKeyID = v
		case "secret_key", "secret_access_key":
			o.SecretAccessKey = v
			continue // never parse or echo
		case "session_token":
			o.SessionToken = v
			continue
		case "profile":
			o.Profile = v
		case "anonymous":
			o.Anonymous, err = strconv.ParseBool(v)
		case "max_retries":
			o.MaxRetries, err = parseNonNeg(v)
		case "max_inflight":
			o.MaxInflight, err = parseNonNeg(v)
		case "retry_max_backoff":
			o.RetryMaxBackoff, err = time.ParseDuration(v)
			if err == nil && o.RetryMaxBackoff < 0 {
				err = fmt.Errorf("negative duration")
			}
		case "part_size":
			var n int
			n, err = parseNonNeg(v)
			o.PartSize = int64(n)
			if err == nil && n != 0 && n < 5<<20 {
				err = fmt.Errorf("below the S3 minimum of 5 MiB")
			}
		default:
			continue
		}
		if err != nil {
			return Options{}, fmt.Errorf("storage option %s=%q: %w", raw, v, unwrapNum(err))
		}
	}
	if o.AccessKeyID != "" && o.SecretAccessKey == "" {
		return Options{}, fmt.Errorf("storage options: access_key given without secret_key")
	}
	if o.SecretAccessKey != "" && o.AccessKeyID == "" {
		return Options{}, fmt.Errorf("storage options: secret_key given without access_key")
	}
	if o.Anonymous && o.AccessKeyID != "" {
		return Options{}, fmt.Errorf("storage options: anonymous conflicts with access_key")
	}
	return o, nil
}

func parseNonNeg(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, fmt.Errorf("must not be negative")
	}
	return n, nil
}

// unwrapNum drops strconv's echo of the input, which is already in the
// message.
func unwrapNum(err error) error {
	if ne, ok := err.(*strconv.NumError); ok {
		return ne.Err
	}
	return err
}

// Redacted returns the options that are set, as OPTIONS keys, with
// credentials replaced by "***": safe to log or show in SHOW TABLES.
func (o Options) Redacted() map[string]string {
	m := map[string]string{}
	set := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	secret := func(k, v string) {
		if v != "" {
			m[k] = "***"
		}
	}
	set("region", o.Region)
	set("endpoint", o.Endpoint)
	if o.PathStyle != nil {
		m["path_style"] = strconv.FormatBool(*o.PathStyle)
	}
	secret("access_key", o.AccessKeyID)
	secret("secret_key", o.SecretAccessKey)
	secret("session_token", o.SessionToken)
	set("profile", o.Profile)
	if o.Anonymous {
		m["anonymous"] = "true"
	}
	if o.MaxRetries != 0 {
		m["max_retries"] = strconv.Itoa(o.MaxRetries)
	}
	if o.RetryMaxBackoff != 0 {
		m["retry_max_backoff"] = o.RetryMaxBackoff.String()
	}
	if o.MaxInflight != 0 {
		m["max_inflight"] = strconv.Itoa(o.MaxInflight)
	}
	if o.PartSize != 0 {
		m["part_size"] = strconv.FormatInt(o.PartSize, 10)
	}
	return m
}

// String prints the redacted options, so %v never leaks a secret.
func (o Options) String() string {
	m := o.Redacted()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(k + "=" + m[k])
	}
	b.WriteString("}")
	return b.String()
}

// GoString keeps %#v from printing the credential fields.
func (o Options) GoString() string { return "storage.Options" + o.String() }
