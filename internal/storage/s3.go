package storage

import (
	"context"
	"errors"
)

// S3Store is a Store over one S3 bucket.
type S3Store struct{}

// NewS3Store connects to bucket with opts.
func NewS3Store(ctx context.Context, bucket string, opts Options) (Store, error) {
	return nil, errors.New("s3 support is not built yet")
}
