package file

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/testutil/s3server"
)

// TestS3RoundTrip writes a partitioned table to a real S3 server and
// reads it back, through a folder and through a glob.
func TestS3RoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an S3 server")
	}
	srv := s3server.StartTB(t)
	if err := srv.CreateBucket("lake"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opts := map[string]string{
		"endpoint": srv.Endpoint, "region": srv.Region, "path_style": "true",
		"access_key": srv.AccessKey, "secret_key": srv.SecretKey, "compression": "gzip",
	}
	spec := sinkSpec("", "json", true, opts)
	spec.Location = "s3://lake/out/"
	sink, err := NewSink(ctx, spec, connector.SinkOptions{FilePrefix: "q"})
	if err != nil {
		t.Fatal(err)
	}
	writeRows(t, sink, sinkRows)
	if err := sink.Flush(ctx, 0); err != nil {
		t.Fatal(err)
	}
	for _, u := range sink.Written() {
		if !strings.HasPrefix(u, "s3://lake/out/year=") || !strings.HasSuffix(u, ".json.gz") {
			t.Errorf("wrote %s", u)
		}
	}
	src, err := NewSource(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, src); !reflect.DeepEqual(sorted(got), sorted(rowStrings(sinkRows))) {
		t.Errorf("read back %v", got)
	}
	if d := src.Describe(); strings.Contains(d, srv.SecretKey) || strings.Contains(d, srv.AccessKey) {
		t.Errorf("Describe leaks credentials: %s", d)
	}
	spec.Location = "s3://lake/out/year=2026/*/*.json.gz"
	glob, err := NewSource(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	// year=2026 is part of the location, yet still fills year.
	got := readAll(t, glob)
	want := []string{"1|a|2026|eu", "2|NULL|2026|us", "5|e|2026|eu"}
	if !reflect.DeepEqual(sorted(got), want) {
		t.Errorf("glob read %v, want %v", got, want)
	}
}
