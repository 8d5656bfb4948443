package s3server

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func TestStartPutGet(t *testing.T) {
	srv := StartTB(t)
	if err := srv.CreateBucket("bucket1"); err != nil {
		t.Fatal(err)
	}
	if err := srv.CreateBucket("bucket1"); err != nil {
		t.Fatalf("second CreateBucket: %v", err)
	}
	ctx := context.Background()
	c := srv.Client()
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("bucket1"), Key: aws.String("k"), Body: strings.NewReader("v")}); err != nil {
		t.Fatal(err)
	}
	out, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("bucket1"), Key: aws.String("k")})
	if err != nil || aws.ToInt64(out.ContentLength) != 1 {
		t.Fatalf("head: %v %v", out, err)
	}
	srv.Stop()
	srv.Stop()
}
