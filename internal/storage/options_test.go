package storage

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestOptionsFromMap(t *testing.T) {
	o, err := OptionsFromMap(map[string]string{
		"region":            "eu-west-1",
		"S3.Endpoint":       "http://127.0.0.1:7070",
		"path_style":        "true",
		"access_key":        "AKIAEXAMPLE",
		"s3.secret_key":     "sekrit-value",
		"session_token":     "tok-value",
		"max_retries":       "3",
		"retry_max_backoff": "2s",
		"max_inflight":      "8",
		"part_size":         "5242880",
		"compression":       "gzip", // not ours: ignored
	})
	if err != nil {
		t.Fatal(err)
	}
	if o.Region != "eu-west-1" || o.Endpoint != "http://127.0.0.1:7070" || o.PathStyle == nil || !*o.PathStyle ||
		o.AccessKeyID != "AKIAEXAMPLE" || o.SecretAccessKey != "sekrit-value" || o.SessionToken != "tok-value" ||
		o.MaxRetries != 3 || o.RetryMaxBackoff != 2*time.Second || o.MaxInflight != 8 || o.PartSize != 5<<20 {
		t.Fatalf("parsed %#v", o)
	}
	// Nothing secret in any printed form.
	for _, s := range []string{fmt.Sprint(o), fmt.Sprintf("%+v", o), fmt.Sprintf("%#v", o), fmt.Sprint(o.Redacted())} {
		for _, secret := range []string{"AKIAEXAMPLE", "sekrit", "tok-value"} {
			if strings.Contains(s, secret) {
				t.Errorf("printed options leak %q: %s", secret, s)
			}
		}
	}
	if r := o.Redacted(); r["secret_key"] != "***" || r["region"] != "eu-west-1" || r["path_style"] != "true" {
		t.Errorf("Redacted = %v", r)
	}
	if _, ok := (Options{}).Redacted()["region"]; ok {
		t.Error("unset option in Redacted")
	}
}

func TestOptionsFromMapErrors(t *testing.T) {
	cases := []struct {
		m    map[string]string
		want string
	}{
		{map[string]string{"path_style": "maybe"}, "path_style"},
		{map[string]string{"max_retries": "-1"}, "max_retries"},
		{map[string]string{"max_retries": "x"}, "max_retries"},
		{map[string]string{"retry_max_backoff": "soon"}, "retry_max_backoff"},
		{map[string]string{"part_size": "1000"}, "5 MiB"},
		{map[string]string{"anonymous": "yes please"}, "anonymous"},
		{map[string]string{"access_key": "AK"}, "secret_key"},
		{map[string]string{"secret_key": "hush-hush"}, "access_key"},
		{map[string]string{"anonymous": "true", "access_key": "AK", "secret_key": "hush-hush"}, "anonymous"},
	}
	for _, c := range cases {
		_, err := OptionsFromMap(c.m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("OptionsFromMap(%v) = %v, want error mentioning %q", c.m, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), "hush-hush") {
			t.Errorf("error leaks a secret: %v", err)
		}
	}
}

func TestOptionKeys(t *testing.T) {
	keys := OptionKeys()
	for _, k := range keys {
		if !IsOptionKey(k) || !IsOptionKey("s3."+k) {
			t.Errorf("IsOptionKey(%q) false", k)
		}
	}
	if IsOptionKey("compression") || len(keys) < 10 {
		t.Errorf("keys %v", keys)
	}
}

// ${env:VAR} in a storage option is read from the environment, so S3
// keys need not be written into OPTIONS (and catalog.json).
func TestOptionsFromMapExpandsEnv(t *testing.T) {
	t.Setenv("SLUICE_TEST_KEY", "AKIAENV")
	t.Setenv("SLUICE_TEST_SECRET", "s3cr3t")
	o, err := OptionsFromMap(map[string]string{"access_key": "${env:SLUICE_TEST_KEY}", "s3.secret_key": "${env:SLUICE_TEST_SECRET}", "format_thing": "${env:NOT_OURS}"})
	if err != nil || o.AccessKeyID != "AKIAENV" || o.SecretAccessKey != "s3cr3t" {
		t.Fatalf("%+v %v", o, err)
	}
	_, err = OptionsFromMap(map[string]string{"secret_key": "${env:SLUICE_TEST_UNSET}", "access_key": "x"})
	if err == nil || !strings.Contains(err.Error(), "environment variable SLUICE_TEST_UNSET is not set") {
		t.Fatalf("err %v", err)
	}
}
