package backup

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/storage"
)

// OpenLocation resolves a backup's location (a local folder, file:// or
// s3://bucket/prefix) into its store and key prefix ("" or ending in
// "/"); s3 are storage options for S3 (endpoint, region, ...).
func OpenLocation(ctx context.Context, loc string, s3 map[string]string) (storage.Store, string, error) {
	opts, err := storage.OptionsFromMap(s3)
	if err != nil {
		return nil, "", fmt.Errorf("backup location %s: %w", loc, err)
	}
	st, prefix, err := storage.Resolve(ctx, loc, opts)
	if err != nil {
		return nil, "", fmt.Errorf("backup location: %w", err)
	}
	if strings.ContainsAny(prefix, "*?[") {
		return nil, "", fmt.Errorf("backup location %s: a glob is not a location", loc)
	}
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return st, prefix, nil
}

// TakeTo is Take into the location dest.
func TakeTo(ctx context.Context, dest string, s3 map[string]string, o Options) (*Manifest, error) {
	st, prefix, err := OpenLocation(ctx, dest, s3)
	if err != nil {
		return nil, err
	}
	o.Dest, o.Prefix = st, prefix
	return Take(ctx, o)
}

// RestoreFrom is Restore from the location src.
func RestoreFrom(ctx context.Context, src string, s3 map[string]string, o RestoreOptions) (*Manifest, error) {
	st, prefix, err := OpenLocation(ctx, src, s3)
	if err != nil {
		return nil, err
	}
	o.Src, o.Prefix = st, prefix
	return Restore(ctx, o)
}
