package storage

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// sdkError builds the error shape the SDK returns for an HTTP answer.
func sdkError(status int, code string, header http.Header) error {
	return &smithy.OperationError{ServiceID: "S3", OperationName: "GetObject", Err: &awshttp.ResponseError{
		ResponseError: &smithyhttp.ResponseError{
			Response: &smithyhttp.Response{Response: &http.Response{StatusCode: status, Header: header}},
			Err:      &smithy.GenericAPIError{Code: code, Message: "sdk says " + code},
		},
		RequestID: "REQ123",
	}}
}

func TestS3MapErr(t *testing.T) {
	s := &S3Store{bucket: "logs"}
	cases := []struct {
		err  error
		kind error
		msg  string
	}{
		{sdkError(404, "NoSuchKey", nil), ErrNotFound, "reading s3://logs/a/b: object not found"},
		{sdkError(404, "NotFound", nil), ErrNotFound, "reading s3://logs/a/b: object not found"},
		{sdkError(404, "NoSuchBucket", nil), ErrNotFound, "reading s3://logs: bucket does not exist"},
		{sdkError(403, "AccessDenied", nil), ErrAccessDenied, "access denied to s3://logs (check credentials)"},
		{sdkError(403, "InvalidAccessKeyId", nil), ErrAccessDenied, "access denied to s3://logs (check credentials)"},
		{sdkError(403, "SignatureDoesNotMatch", nil), ErrAccessDenied, "access denied to s3://logs (check credentials)"},
		{sdkError(400, "ExpiredToken", nil), ErrAccessDenied, "access denied to s3://logs (check credentials)"},
		{sdkError(404, "XAdminUserNotFound", nil), ErrAccessDenied, "access denied to s3://logs (check credentials)"},
		{sdkError(412, "PreconditionFailed", nil), errPrecondition, "reading s3://logs/a/b: precondition failed"},
		{sdkError(301, "PermanentRedirect", http.Header{"X-Amz-Bucket-Region": {"eu-west-1"}}), errS3,
			"reading s3://logs: the bucket is in region eu-west-1; set OPTIONS (region 'eu-west-1')"},
		{sdkError(500, "InternalError", nil), errS3, "reading s3://logs/a/b: InternalError: sdk says InternalError"},
		{context.Canceled, context.Canceled, "reading s3://logs/a/b: context canceled"},
	}
	for _, c := range cases {
		got := s.mapErr("reading", "a/b", c.err)
		if !errors.Is(got, c.kind) || got.Error() != c.msg {
			t.Errorf("mapErr(%v) = %q, want %q (kind %v)", c.err, got, c.msg, c.kind)
		}
		if strings.Contains(got.Error(), "REQ123") {
			t.Errorf("request ID noise in %q", got)
		}
		var re *awshttp.ResponseError
		if c.kind != context.Canceled && !errors.As(got, &re) {
			t.Errorf("mapErr(%v) lost the SDK cause", c.err)
		}
	}
}

func TestNewS3StoreOptions(t *testing.T) {
	if _, err := NewS3Store(context.Background(), "b", Options{Endpoint: "localhost:9000"}); err == nil || !strings.Contains(err.Error(), "scheme") {
		t.Errorf("endpoint without scheme: %v", err)
	}
	st, err := NewS3Store(context.Background(), "bucket", Options{AccessKeyID: "AKIDSECRETISH", SecretAccessKey: "shh-secret", Endpoint: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if s := st.String(); s != "s3://bucket" {
		t.Errorf("String() = %q", s)
	}
}
