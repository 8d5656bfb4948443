package storage

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func TestS3StoreContract(t *testing.T) {
	t.Parallel()
	testStoreContract(t, newS3Bucket(t, Options{}))
}

func TestS3ListPages(t *testing.T) {
	t.Parallel()
	st := newS3Bucket(t, Options{})
	st.listPageSize = 1000
	const n = 2500
	// The gateway serves a plain directory tree, so the bulk of the keys
	// are written straight to disk (2,500 PUTs take ~10 s on a busy
	// machine); a few go through the API so both kinds are listed.
	bucketDir := filepath.Join(s3srv.Dir, st.Bucket(), "logs")
	if err := os.MkdirAll(bucketDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if i%500 == 7 {
			put(t, st, fmt.Sprintf("logs/%05d.json", i), "{}")
			continue
		}
		if err := os.WriteFile(filepath.Join(bucketDir, fmt.Sprintf("%05d.json", i)), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(t, st, "other/x", "")
	cases := []struct {
		prefix, after string
		count         int
		first, last   string
	}{
		{"logs/", "", n, "logs/00000.json", "logs/02499.json"},
		{"", "", n + 1, "logs/00000.json", "other/x"},
		{"logs/", "logs/01499.json", 1000, "logs/01500.json", "logs/02499.json"},
		{"logs/0", "logs/00999.json", 1500, "logs/01000.json", "logs/02499.json"},
		{"logs/", "logs/02499.json", 0, "", ""},
	}
	for _, c := range cases {
		got := listKeys(t, st, c.prefix, c.after)
		if len(got) != c.count || c.count > 0 && (got[0] != c.first || got[len(got)-1] != c.last) {
			t.Errorf("List(%q, %q): %d keys, want %d from %s to %s", c.prefix, c.after, len(got), c.count, c.first, c.last)
		}
		for i := 1; i < len(got); i++ {
			if got[i-1] >= got[i] {
				t.Fatalf("List out of order at %d: %s >= %s", i, got[i-1], got[i])
			}
		}
	}
}

func TestS3Multipart(t *testing.T) {
	t.Parallel()
	st := newS3Bucket(t, Options{PartSize: 5 << 20})
	ctx := t.Context()
	data := make([]byte, 40<<20+12345)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	// A plain io.Reader (no Len, no Seek) is the hard case.
	if err := st.Put(ctx, "big.bin", struct{ io.Reader }{bytes.NewReader(data)}, false); err != nil {
		t.Fatal(err)
	}
	info, err := st.Stat(ctx, "big.bin")
	if err != nil || info.Size != int64(len(data)) {
		t.Fatalf("Stat = %+v, %v", info, err)
	}
	rc, err := st.Open(ctx, "big.bin")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || sha256.Sum256(got) != sha256.Sum256(data) {
		t.Fatalf("multipart round trip differs (%d bytes, err %v)", len(got), err)
	}
	rc, err = st.OpenRange(ctx, "big.bin", 20<<20-3, 10)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(part, data[20<<20-3:20<<20+7]) {
		t.Fatal("ranged read across a part boundary differs")
	}
	// ifAbsent is checked on CompleteMultipartUpload, and the failed
	// upload is aborted: no parts are left behind.
	err = st.Put(ctx, "big.bin", bytes.NewReader(data[:11<<20]), true)
	if !errors.Is(err, ErrExists) {
		t.Fatalf("multipart ifAbsent over existing = %v", err)
	}
	if err := st.Put(ctx, "big2.bin", bytes.NewReader(data[:11<<20]), true); err != nil {
		t.Fatalf("multipart ifAbsent new = %v", err)
	}
	if info, _ := st.Stat(ctx, "big2.bin"); info.Size != 11<<20 {
		t.Fatalf("big2 size %d", info.Size)
	}
}

func TestS3Conditional(t *testing.T) {
	t.Parallel()
	st := newS3Bucket(t, Options{})
	if err := st.CheckConditionalPut(t.Context()); err != nil {
		t.Fatalf("CheckConditionalPut: %v", err)
	}
	// The probe cleans up after itself.
	if keys := listKeys(t, st, ".sluice-probe/", ""); len(keys) != 0 {
		t.Fatalf("probe keys left: %v", keys)
	}
	// Many racing writers of one key: exactly one wins, in every round.
	for round := 0; round < 10; round++ {
		key := fmt.Sprintf("commits/%d", round)
		var wins atomic.Int32
		var wg sync.WaitGroup
		for i := 0; i < 6; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := st.Put(t.Context(), key, strings.NewReader(fmt.Sprint(i)), true)
				if err == nil {
					wins.Add(1)
				} else if !errors.Is(err, ErrExists) {
					t.Errorf("racing Put: %v", err)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("round %d: %d winners", round, wins.Load())
		}
	}
}

func TestS3Errors(t *testing.T) {
	t.Parallel()
	st := newS3Bucket(t, Options{})
	put(t, st, "k", "v")
	ctx := t.Context()

	// A wrong secret is refused with 403 SignatureDoesNotMatch.
	bad := newS3Store(t, st.Bucket(), Options{AccessKeyID: s3srv.AccessKey, SecretAccessKey: "wrong-secret-value", MaxRetries: 1})
	errs := map[string]error{}
	_, errs["stat"] = bad.Stat(ctx, "k")
	_, errs["open"] = bad.Open(ctx, "k")
	errs["list"] = bad.List(ctx, "", "", func(ObjectInfo) error { return nil })
	errs["put"] = bad.Put(ctx, "k2", strings.NewReader("x"), false)
	errs["delete"] = bad.Delete(ctx, "k")
	// An unknown access key: Versity says 404 XAdminUserNotFound, which
	// only requests with a body (not HEAD) can tell from a missing key.
	unknown := newS3Store(t, st.Bucket(), Options{AccessKeyID: "nosuchkeyid", SecretAccessKey: "wrong-secret-value", MaxRetries: 1})
	errs["list unknown key"] = unknown.List(ctx, "", "", func(ObjectInfo) error { return nil })
	_, errs["open unknown key"] = unknown.Open(ctx, "k")
	for op, err := range errs {
		if !errors.Is(err, ErrAccessDenied) {
			t.Errorf("%s with bad credentials = %v, want ErrAccessDenied", op, err)
			continue
		}
		want := "access denied to s3://" + st.Bucket() + " (check credentials)"
		if err.Error() != want {
			t.Errorf("%s: message %q, want %q", op, err, want)
		}
	}

	missing := newS3Store(t, "no-such-bucket-here", Options{})
	err := missing.List(ctx, "", "", func(ObjectInfo) error { return nil })
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "s3://no-such-bucket-here") || strings.Contains(err.Error(), "\n") {
		t.Errorf("List on missing bucket = %v", err)
	}
	if _, err := missing.Stat(ctx, "k"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Stat on missing bucket = %v", err)
	}
	if err := missing.Put(ctx, "k", strings.NewReader("x"), false); !errors.Is(err, ErrNotFound) {
		t.Errorf("Put on missing bucket = %v", err)
	}

	_, err = st.Open(ctx, "nope/key")
	if !errors.Is(err, ErrNotFound) || err.Error() != "reading s3://"+st.Bucket()+"/nope/key: object not found" {
		t.Errorf("Open missing key = %v", err)
	}

	if s := st.String(); s != "s3://"+st.Bucket() || strings.Contains(fmt.Sprintf("%v %+v", st, st), s3srv.SecretKey) {
		t.Errorf("String() = %q or a print of the store leaks the secret", s)
	}
}

func TestS3Resolve(t *testing.T) {
	t.Parallel()
	st := newS3Bucket(t, Options{})
	put(t, st, "logs/a.json", "{}")
	opts, err := OptionsFromMap(map[string]string{
		"endpoint": s3srv.Endpoint, "s3.access_key": s3srv.AccessKey, "s3.secret_key": s3srv.SecretKey,
	})
	if err != nil {
		t.Fatal(err)
	}
	got, prefix, err := Resolve(context.Background(), "s3://"+st.Bucket()+"/logs/*.json", opts)
	if err != nil || prefix != "logs/*.json" || got.String() != st.String() {
		t.Fatalf("Resolve = %v %q %v", got, prefix, err)
	}
	if keys := listKeys(t, got, GlobPrefix(prefix), ""); len(keys) != 1 {
		t.Fatalf("listing through resolved store: %v", keys)
	}
}

// failingReader yields n zero bytes and then fails.
type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("disk on fire")
	}
	k := min(len(p), f.n)
	clear(p[:k])
	f.n -= k
	return k, nil
}

func TestS3MultipartAbort(t *testing.T) {
	t.Parallel()
	st := newS3Bucket(t, Options{PartSize: 5 << 20})
	ctx := t.Context()
	err := st.Put(ctx, "broken.bin", &failingReader{n: 17 << 20}, false)
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("Put from a failing reader = %v", err)
	}
	if _, err := st.Stat(ctx, "broken.bin"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a failed upload left an object: %v", err)
	}
	ups, err := st.client.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: aws.String(st.Bucket())})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups.Uploads) != 0 {
		t.Fatalf("%d multipart uploads left after abort", len(ups.Uploads))
	}
}

// TestS3NoCredentials: with no credentials anywhere (options,
// environment, shared files, instance role) a request fails with one
// line that says where credentials can come from, not the SDK's chain
// of provider errors; anonymous requests are still sent unsigned.
func TestS3NoCredentials(t *testing.T) {
	if s3srv == nil {
		t.Skip("no S3 server")
	}
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	st, err := NewS3Store(t.Context(), "somebucket", Options{Endpoint: s3srv.Endpoint, MaxRetries: 1})
	if err != nil {
		t.Fatal(err)
	}
	err = st.List(t.Context(), "", "", func(ObjectInfo) error { return nil })
	if !errors.Is(err, ErrAccessDenied) || !strings.Contains(err.Error(), "no S3 credentials found") || strings.Contains(err.Error(), "IMDS") {
		t.Fatalf("List without credentials = %v, want one line naming where credentials come from", err)
	}
	anon, err := NewS3Store(t.Context(), "somebucket", Options{Endpoint: s3srv.Endpoint, MaxRetries: 1, Anonymous: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := anon.List(t.Context(), "", "", func(ObjectInfo) error { return nil }); err != nil && strings.Contains(err.Error(), "no S3 credentials") {
		t.Fatalf("anonymous List = %v: it was signed", err)
	}
}
