package file

import (
	"context"

	"sluice/internal/connector"
)

var _ connector.SizeReporter = (*Source)(nil)

// DataSize lists the location as a query would (hidden files and
// filters left out) and adds up the files' sizes.
func (s *Source) DataSize(ctx context.Context) (files, bytes int64, err error) {
	list, err := s.listFiles(ctx)
	if err != nil {
		return 0, 0, err
	}
	for _, f := range list {
		bytes += f.Size
	}
	return int64(len(list)), bytes, nil
}
