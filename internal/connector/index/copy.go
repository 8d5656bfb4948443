package index

import (
	"context"
	"fmt"
	"os"

	"github.com/blevesearch/bleve/v2"
)

// CopyTo writes a copy of the index at path into dir (which must not
// exist), as of one Bleve snapshot: every batch written before the call
// is in it, none is half in it, and the writers (a running stream's
// sink) go on meanwhile. An index this process has open is copied
// through that handle; one another process holds makes it wait, as
// opening it would (acquire). A path with no index is an error.
func CopyTo(ctx context.Context, path, dir string) error {
	sh, err := acquire(ctx, path, nil, nil, false)
	if err != nil {
		return fmt.Errorf("copying index %s: %w", path, err)
	}
	if sh == nil {
		return fmt.Errorf("copying index %s: %w", path, os.ErrNotExist)
	}
	defer func() { _ = release(path) }()
	c, ok := sh.idx.(bleve.IndexCopyable)
	if !ok {
		return fmt.Errorf("copying index %s: this index cannot be copied online", path)
	}
	if err := c.CopyTo(bleve.FileSystemDirectory(dir)); err != nil {
		return fmt.Errorf("copying index %s: %w", path, err)
	}
	return nil
}
