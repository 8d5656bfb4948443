package file

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/storage"
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

// TestS3MissingKey: an object deleted between planning and reading is
// one clear "object not found" naming it, with and without read-ahead.
func TestS3MissingKey(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an S3 server")
	}
	srv := s3server.StartTB(t)
	if err := srv.CreateBucket("gone"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opts := map[string]string{
		"endpoint": srv.Endpoint, "region": srv.Region,
		"access_key": srv.AccessKey, "secret_key": srv.SecretKey,
	}
	st, _, err := storage.Resolve(ctx, "s3://gone/", mustS3Options(t, opts))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"d/a.json", "d/b.json", "d/c.json"} {
		if err := st.Put(ctx, k, strings.NewReader(`{"a": 1}`+"\n"), false); err != nil {
			t.Fatal(err)
		}
	}
	for _, ra := range []string{"0", "16"} {
		t.Run("read_ahead="+ra, func(t *testing.T) {
			o := map[string]string{"read_ahead": ra}
			for k, v := range opts {
				o[k] = v
			}
			src, err := NewSource(ctx, connector.TableSpec{Name: "t", Using: "json", Location: "s3://gone/d/",
				Options: o, Schema: schema(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64})})
			if err != nil {
				t.Fatal(err)
			}
			off, err := src.Latest(ctx)
			if err != nil {
				t.Fatal(err)
			}
			splits, err := src.Plan(ctx, nil, off)
			if err != nil || len(splits) != 3 {
				t.Fatalf("Plan: %d splits, %v", len(splits), err)
			}
			if err := st.Put(ctx, "d/b.json", strings.NewReader(`{"a": 1}`+"\n"), false); err != nil {
				t.Fatal(err)
			}
			if err := st.Delete(ctx, "d/b.json"); err != nil {
				t.Fatal(err)
			}
			var readErr error
			for _, sp := range splits {
				rr, err := src.Open(ctx, sp)
				if err == nil {
					for {
						b, nerr := rr.Next(ctx)
						if nerr != nil {
							if nerr != io.EOF {
								err = nerr
							}
							break
						}
						b.Release()
					}
					rr.Close()
				}
				if err != nil && readErr == nil {
					readErr = err
				}
			}
			if readErr == nil {
				t.Fatal("reading a deleted object: no error")
			}
			if !errors.Is(readErr, storage.ErrNotFound) || !strings.Contains(readErr.Error(), "s3://gone/d/b.json") ||
				!strings.Contains(readErr.Error(), "object not found") {
				t.Errorf("error %q should be ErrNotFound naming s3://gone/d/b.json", readErr)
			}
			if strings.Contains(readErr.Error(), srv.SecretKey) || strings.Contains(readErr.Error(), "operation error") {
				t.Errorf("error leaks a secret or SDK noise: %s", readErr)
			}
			// Put it back for the next run.
			if err := st.Put(ctx, "d/b.json", strings.NewReader(`{"a": 1}`+"\n"), false); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func mustS3Options(t *testing.T, m map[string]string) storage.Options {
	t.Helper()
	o, err := storage.OptionsFromMap(m)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
